import { databaseConfig } from '../../../shared/config/database-config';
import { defineConfig } from '../../../shared/config/load-config';

/** The auth module's one config loader. */
export const authConfig = defineConfig({
  database: databaseConfig('AUTH_DATABASE_URL'),
});
