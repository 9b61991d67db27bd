/** What the e2e global set-up (test/e2e/global-setup.ts) hands to the tests. */
export interface E2eStack {
  /** Origin of the running `npm run dev` stack, e.g. http://127.0.0.1:41234. */
  baseUrl: string;
  /** The super admin `npm run dev` seeds on a fresh data folder. */
  admin: { username: string; password: string };
  /** The offline model endpoint's test controls (…/_control): failures and delays. */
  modelControlUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: E2eStack;
  }
}
