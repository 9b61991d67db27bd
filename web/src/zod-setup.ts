import { config } from 'zod';

// zod would probe `new Function` to speed up parsing; the page's CSP forbids eval, and the
// probe would be reported as a violation. Imported first, before any schema is used.
config({ jitless: true });
