/**
 * The page at `/docs` and `/<prefix>/docs`: an interactive API reference that Swagger UI
 * (swagger-ui-dist) builds in the browser from the OpenAPI document the same worker serves.
 * Swagger UI, its styles and the few lines that start it are the gateway's static assets
 * (`/assets/…`, built by dev/web-build.ts): same origin, no CDN, and a module worker's page
 * can load them because every module shares the gateway's domain.
 */

import { LANGUAGE_TAG, type Language } from '../i18n/language';

/** Where the page finds its scripts and styles (the gateway's static assets). */
export const API_REFERENCE_ASSETS = {
  style: '/assets/swagger-ui/swagger-ui.css',
  script: '/assets/swagger-ui/swagger-ui-bundle.js',
  start: '/assets/api-docs.js',
} as const;

/**
 * As strict as Swagger UI allows: scripts and styles from this origin only (its styles are a
 * file, React's inline styles are set through the CSSOM, which CSP allows), no eval, requests
 * to this origin only ("try it"); data: images for the icons its stylesheet embeds. No Trusted
 * Types: Swagger UI renders the documents' Markdown descriptions with innerHTML (after its
 * own DOMPurify).
 */
export const API_REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The page's own words, in the language of the document it shows. */
const PAGE_WORDS: Record<Language, { title: (name: string) => string; noScript: string }> = {
  en: {
    title: (name) => `${name} API`,
    noScript: 'The API reference needs JavaScript. The document itself:',
  },
  zh: {
    title: (name) => `${name} API 参考`,
    noScript: 'API 参考需要 JavaScript。文档本身：',
  },
};

/**
 * The page shell: a title, the assets, and the address of the document to show; its language
 * (`<html lang>` and its own words) is that of the document (default English).
 */
export function renderApiReferencePage(options: {
  title: string;
  openApiUrl: string;
  language?: Language;
}): string {
  const language = options.language ?? 'en';
  const words = PAGE_WORDS[language];
  return `<!doctype html>
<html lang="${LANGUAGE_TAG[language]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(words.title(options.title))}</title>
<link rel="stylesheet" href="${API_REFERENCE_ASSETS.style}">
<script src="${API_REFERENCE_ASSETS.script}" defer></script>
<script src="${API_REFERENCE_ASSETS.start}" defer></script>
</head>
<body>
<main id="api-reference" data-openapi="${escapeHtml(options.openApiUrl)}">
<noscript><p>${words.noScript}
<a href="${escapeHtml(options.openApiUrl)}">${escapeHtml(options.openApiUrl)}</a> (OpenAPI 3.0).</p></noscript>
</main>
</body>
</html>
`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
