/**
 * `cloudflare:workers` in the web tests, as in the web build (dev/web-build.ts): the service
 * declarations reach the Workers RPC classes through a barrel; the browser never uses them.
 */
const unavailable = () => {
  throw new Error('cloudflare:workers is not available in the browser');
};
export class WorkerEntrypoint {
  constructor() {
    unavailable();
  }
}
export class DurableObject {
  constructor() {
    unavailable();
  }
}
export class RpcTarget {
  constructor() {
    unavailable();
  }
}
export class WorkflowEntrypoint {
  constructor() {
    unavailable();
  }
}
