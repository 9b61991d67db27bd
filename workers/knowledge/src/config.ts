import { databaseConfig } from '../../../shared/config/database-config';
import { defineConfig } from '../../../shared/config/load-config';
import { tokenVerificationConfig } from '../../../shared/config/token-config';

/** The knowledge module's one config loader. */
export const knowledgeConfig = defineConfig({
  database: databaseConfig('KNOWLEDGE_DATABASE_URL'),
  verification: tokenVerificationConfig,
});
