import { AnnotationStore } from './annotation-store';
import { parseAnnotations } from './annotations';
import { compileRoute, ServiceDeclarationError } from './compile-route';
import type { MethodMap, MethodSpec, Route, Service, ServiceSpec } from './types';

export { ServiceDeclarationError };

/** Declares one method; an identity function that keeps the literal types for inference. */
export function method<const M extends MethodSpec>(spec: M): M {
  return spec;
}

/**
 * Route names of the description routes mountService adds (`GET <prefix>/openapi.json` and
 * `GET <prefix>/docs`). They are guest routes: the REST annotation store holds `@role(guest)`
 * for them, and the authorize hook sees them with that role.
 */
export const OPENAPI_ROUTE = 'OpenApiDocument';
export const DOCS_ROUTE = 'OpenApiDocs';
export const GUEST_ANNOTATIONS = [{ name: 'role', params: ['guest'] }] as const;

const PREFIX = /^(\/[A-Za-z0-9._~-]+)+$/;
const SERVICE_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * Declares a service once: every method's route, parameters, annotations and response kind
 * are derived and checked here, so a malformed declaration fails when the worker's module is
 * loaded (and in its unit tests), never at request time.
 */
export function defineService<
  const M extends MethodMap,
  const AnnotatedOnly extends boolean = false,
>(spec: ServiceSpec<M, AnnotatedOnly>): Service<M, AnnotatedOnly> {
  if (!SERVICE_NAME.test(spec.name)) {
    throw new ServiceDeclarationError(`"${spec.name}" is not a service name`);
  }
  if (!PREFIX.test(spec.prefix)) {
    throw new ServiceDeclarationError(
      `${spec.name}: prefix "${spec.prefix}" must be an absolute path without a trailing "/"`,
    );
  }
  const doc = spec.doc ?? '';
  parseAnnotations(doc);
  const routePattern = spec.routePattern ?? 0;
  if (routePattern !== 0 && routePattern !== 1) {
    throw new ServiceDeclarationError(`${spec.name}: routePattern is 0 or 1`);
  }
  const annotatedOnly = (spec.annotatedOnly ?? false) as AnnotatedOnly;
  for (const reserved of [OPENAPI_ROUTE, DOCS_ROUTE]) {
    if (reserved in spec.methods) {
      throw new ServiceDeclarationError(
        `${spec.name}: ${reserved} is the name of a description route`,
      );
    }
  }
  const routes = Object.entries(spec.methods).map(([name, methodSpec]) =>
    compileRoute(spec.name, spec.prefix, name, methodSpec, { routePattern, annotatedOnly }),
  );
  assertDistinctRoutes(spec.name, routes);
  return {
    name: spec.name,
    prefix: spec.prefix,
    doc,
    version: spec.version ?? '1.0.0',
    routePattern,
    annotatedOnly,
    methods: spec.methods,
    routes,
    routeAnnotations: new AnnotationStore([
      ...routes.map((route) => [route.name, route.annotations] as const),
      [OPENAPI_ROUTE, GUEST_ANNOTATIONS],
      [DOCS_ROUTE, GUEST_ANNOTATIONS],
    ]),
    methodAnnotations: new AnnotationStore(
      routes.filter((route) => route.rpc).map((route) => [route.name, route.annotations]),
    ),
  };
}

/** Two methods on one verb and path would shadow each other; `:id` and `:name` are the same. */
function assertDistinctRoutes(serviceName: string, routes: readonly Route[]): void {
  const seen = new Map<string, string>();
  for (const route of routes) {
    const key = `${route.httpMethod} ${route.path.replace(/:[^/]+/g, ':')}`;
    const other = seen.get(key);
    if (other !== undefined) {
      throw new ServiceDeclarationError(
        `${serviceName}: ${other} and ${route.name} both answer ${route.httpMethod} ${route.path}`,
      );
    }
    seen.set(key, route.name);
  }
}

export function routeOf(service: Service, name: string): Route {
  const route = service.routes.find((candidate) => candidate.name === name);
  if (!route) throw new Error(`${service.name} has no method ${name}`);
  return route;
}
