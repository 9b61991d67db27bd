import type { TestStack } from './stack';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: TestStack;
  }
}

declare global {
  namespace Cloudflare {
    // The integration project's main worker is the gateway: `exports.default` is its handler.
    interface GlobalProps {
      mainModule: typeof import('../workers/gateway/src/index');
    }
  }
}
