/**
 * The web app's page at `/`: a static shell that loads the bundled client from `/assets/`
 * (Workers static assets, built by `node dev/web-build.ts`), with the security headers of a
 * page. The client talks only to the modules' public API, as any other client does.
 */

/**
 * Everything comes from this origin; no inline script or style, no eval, no plugins, no
 * framing. Trusted Types are required with no policy allowed, so the page cannot turn a string
 * into markup at all (`innerHTML` and friends throw): text from the model or from documents
 * only ever becomes text nodes.
 */
export const APP_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

/** Headers every response the gateway serves itself carries (not the modules' responses). */
export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/** Headers of the app page. */
export const APP_PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...BASE_SECURITY_HEADERS,
  'Content-Security-Policy': APP_CONTENT_SECURITY_POLICY,
  'Permissions-Policy':
    'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
};

/** The page shell; the client (`/assets/app.js`) renders everything inside `#app`. */
export function renderAppPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>Knowledge-base chat</title>
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/app.css">
<script type="module" src="/assets/app.js"></script>
</head>
<body>
<div id="app"><p class="boot">Loading…</p></div>
<noscript>
<p>This page needs JavaScript. The service can also be used through its API:
<a href="/moduleauth/docs">/moduleauth</a> (users, login tokens, roles),
<a href="/moduleknowledge/docs">/moduleknowledge</a> (PDF knowledge base),
<a href="/modulechat/docs">/modulechat</a> (answers streamed over SSE);
<a href="/docs">documentation</a>, <a href="/openapi.json">OpenAPI 3.0</a>.</p>
</noscript>
</body>
</html>
`;
}
