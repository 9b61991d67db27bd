import { defineConfig } from 'drizzle-kit';

// Each module owns its tables in workers/<module>/src/db/schema.ts; one migrations folder
// serves the one database they share by default (each module can also have its own DSN).
export default defineConfig({
  dialect: 'postgresql',
  schema: './workers/*/src/db/schema.ts',
  out: './migrations',
});
