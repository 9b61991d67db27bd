import { defineConfig } from '../../../shared/config/load-config';
import { modelConfig } from '../../../shared/config/model-config';

/** The chat module's one config loader. */
export const chatConfig = defineConfig({
  model: modelConfig,
});
