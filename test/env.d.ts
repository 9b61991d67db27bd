// Relative imports, not #shared/…: this declaration file is part of the Node tooling's
// TypeScript program too (dev/tsconfig.json, NodeNext), which would then type-check the
// contracts under Node's rules.
import type { TestStack } from './stack';
import type { scannedFixturesForTests } from '../dev/fixtures/scanned-pdfs';
import type gateway from '../workers/gateway/src/index';
import type { authService } from '../shared/contracts/auth';
import type { knowledgeService } from '../shared/contracts/knowledge';
import type { RpcBindingOf } from '../shared/service';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: TestStack;
    /** Scanned PDFs (dev/fixtures/scanned-pdfs.ts), drawn in Node: base64 and expected pages. */
    scans: Awaited<ReturnType<typeof scannedFixturesForTests>>;
  }
}

declare global {
  namespace Cloudflare {
    // Bindings the integration tests add to the gateway they run in (vitest.config.ts).
    interface Env {
      KNOWLEDGE_RPC: RpcBindingOf<typeof knowledgeService>;
      AUTH_RPC: RpcBindingOf<typeof authService>;
      FILES: R2Bucket;
      READER: KnowledgeEnv['READER'];
      /** Unit project: a worker that throws on every request (workers/gateway tests). */
      FAILING_MODULE: Fetcher;
    }
    // The integration project's main worker is the gateway: `exports.default` is its handler.
    interface GlobalProps {
      mainModule: { default: typeof gateway };
    }
  }
}
