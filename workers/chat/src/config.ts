import { defineConfig } from '../../../shared/config/load-config';
import { modelConfig } from '../../../shared/config/model-config';
import { tokenVerificationConfig } from '../../../shared/config/token-config';

/** The chat module's one config loader. */
export const chatConfig = defineConfig({
  model: modelConfig,
  verification: tokenVerificationConfig,
});
