import type { TestStack } from './stack';
import type gateway from '../workers/gateway/src/index';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: TestStack;
  }
}

declare global {
  namespace Cloudflare {
    // The integration project's main worker is the gateway: `exports.default` is its handler.
    interface GlobalProps {
      mainModule: { default: typeof gateway };
    }
  }
}
