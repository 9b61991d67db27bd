/**
 * The web app's page at `/`: a static shell that loads the bundled client from `/assets/`
 * (Workers static assets, built by `node dev/web-build.ts`), with the security headers of a
 * page. The client talks only to the modules' public API, as any other client does.
 */

/**
 * The one Trusted Types policy the page may create: the web app's Markdown renderer
 * (web/src/markdown/trusted-html.ts), which hands markup to the DOM only after DOMPurify.
 */
export const APP_TRUSTED_TYPES_POLICY = 'kbchat-markdown';

/**
 * The document viewer's policy: it makes the one script URL of PDF.js's worker
 * (web/src/viewer/pdf-engine.ts), which creating a Worker needs under Trusted Types.
 */
export const PDF_WORKER_TRUSTED_TYPES_POLICY = 'kbchat-pdf-worker';

/**
 * Everything comes from this origin; no inline script or style, no eval, no plugins, no
 * framing. Trusted Types are required and only two policies exist: the Markdown renderer's,
 * so no other code can turn a string into markup (`innerHTML` and friends throw), and the
 * document viewer's, which knows one worker URL; everything else the app shows is text nodes.
 * The viewer's PDF.js worker is a script of this origin (`worker-src` falls back to
 * `script-src 'self'`); it decodes nothing with WebAssembly, so `wasm-unsafe-eval` stays out.
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
  `trusted-types ${APP_TRUSTED_TYPES_POLICY} ${PDF_WORKER_TRUSTED_TYPES_POLICY}`,
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
<div id="app"><p class="boot">加载中… / Loading…</p></div>
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
