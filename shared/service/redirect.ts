/**
 * A redirect answer: a method declared with `output: redirect()` returns a {@link Redirect} and
 * the route answers 302 with its Location (browser flows such as single sign-on, where the
 * browser itself follows the answer to another site and back).
 */

export interface RedirectSpec {
  readonly kind: 'redirect';
}

export function redirect(): RedirectSpec {
  return { kind: 'redirect' };
}

export function isRedirectSpec(value: unknown): value is RedirectSpec {
  return (
    typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'redirect'
  );
}

/** What a redirect method returns: where the browser goes next (absolute, or a path here). */
export interface Redirect {
  location: string;
}
