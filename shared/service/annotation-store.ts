import type { Annotation } from './annotations';

/**
 * Annotations by route name (= method name), as the spec's RouteAnnotationStore (REST) and
 * MethodAnnotationStore (RPC). A name may occur more than once on a route (`@role(USER)
 * @role(ADMIN)`); `getParams` then returns the parameters of all of them, in order.
 */
export class AnnotationStore {
  readonly #byRoute: ReadonlyMap<string, readonly Annotation[]>;

  constructor(entries: Iterable<readonly [route: string, annotations: readonly Annotation[]]>) {
    this.#byRoute = new Map(entries);
  }

  hasAnnotation(route: string, name: string): boolean {
    return this.annotationsOf(route).some((annotation) => annotation.name === name);
  }

  /** The parameters of the named annotation, or undefined when the route does not carry it. */
  getParams(route: string, name: string): string[] | undefined {
    const matching = this.annotationsOf(route).filter((annotation) => annotation.name === name);
    if (matching.length === 0) return undefined;
    return matching.flatMap((annotation) => annotation.params);
  }

  annotationsOf(route: string): readonly Annotation[] {
    return this.#byRoute.get(route) ?? [];
  }

  routes(): string[] {
    return [...this.#byRoute.keys()];
  }
}

/**
 * The method name of an RPC full method name: the text after the last `/`, as the spec's gRPC
 * interceptor derives it (`/knowledge.KnowledgeRpc/GetQuery` → `GetQuery`). A name without `/`
 * is returned as it is.
 */
export function methodNameOf(fullName: string): string {
  return fullName.slice(fullName.lastIndexOf('/') + 1);
}
