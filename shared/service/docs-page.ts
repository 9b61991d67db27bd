import type { OpenApiDocument } from './openapi';
import type { JsonObject } from './openapi-schema';

/**
 * A self-contained HTML page for an OpenAPI document: rendered on the server, no scripts, no
 * external resources (served with `Content-Security-Policy: default-src 'none'`). Every text
 * taken from the document is escaped.
 */
export function renderDocsPage(document: OpenApiDocument): string {
  const { info } = document;
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => renderOperation(method, path, op)),
  );
  const schemas = Object.entries(document.components.schemas).map(
    ([name, schema]) =>
      `<section id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${code(schema)}</section>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} API</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1>
${info.description ? `<p class="doc">${escapeHtml(info.description)}</p>` : ''}
<p><a href="openapi.json">openapi.json</a></p></header>
<nav><ul>${Object.entries(document.paths)
    .flatMap(([path, item]) =>
      Object.entries(item).map(
        ([method, op]) =>
          `<li><a href="#op-${escapeHtml(String(op.operationId))}"><b>${method.toUpperCase()}</b> ${escapeHtml(path)}</a></li>`,
      ),
    )
    .join('')}</ul></nav>
<main>${operations.join('\n')}
<h2>Schemas</h2>${schemas.join('\n')}</main>
</body>
</html>`;
}

function renderOperation(method: string, path: string, op: JsonObject): string {
  const id = escapeHtml(String(op.operationId));
  const description = typeof op.description === 'string' ? op.description : '';
  const parameters = (op.parameters as JsonObject[] | undefined) ?? [];
  const body = op.requestBody as { content?: Record<string, { schema?: JsonObject }> } | undefined;
  const responses = (op.responses as Record<string, JsonObject> | undefined) ?? {};
  return `<section class="op" id="op-${id}">
<h2><span class="verb ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code> <small>${id}</small></h2>
${description ? `<p class="doc">${escapeHtml(description)}</p>` : ''}
${parameters.length > 0 ? renderParameters(parameters) : ''}
${body?.content ? `<h4>Request body</h4>${renderContent(body.content)}` : ''}
<h4>Responses</h4><dl>${Object.entries(responses)
    .map(([status, response]) => renderResponse(status, response))
    .join('')}</dl>
</section>`;
}

function renderParameters(parameters: readonly JsonObject[]): string {
  const rows = parameters.map(
    (p) =>
      `<tr><td><code>${escapeHtml(String(p.name))}</code></td><td>${escapeHtml(String(p.in))}</td>` +
      `<td>${p.required ? 'yes' : 'no'}</td><td>${code(p.schema)}</td>` +
      `<td>${escapeHtml(String(p.description ?? ''))}</td></tr>`,
  );
  return `<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Required</th><th>Schema</th><th>Description</th></tr>${rows.join('')}</table>`;
}

function renderContent(content: Record<string, { schema?: JsonObject }>): string {
  return Object.entries(content)
    .map(
      ([type, media]) =>
        `<p><code>${escapeHtml(type)}</code></p>${media.schema ? code(media) : ''}`,
    )
    .join('');
}

function renderResponse(status: string, response: JsonObject): string {
  const ref = typeof response.$ref === 'string' ? response.$ref.split('/').pop() : undefined;
  const description = ref ?? String(response.description ?? '');
  const content = response.content as Record<string, { schema?: JsonObject }> | undefined;
  return `<dt>${escapeHtml(status)}</dt><dd>${escapeHtml(description)}${content ? renderContent(content) : ''}</dd>`;
}

function code(value: unknown): string {
  return `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;display:grid;grid-template-columns:18rem 1fr;color:#222}
header{grid-column:1/3;padding:1rem 2rem;border-bottom:1px solid #ddd}nav{padding:1rem;border-right:1px solid #ddd;font-size:13px}
nav ul{list-style:none;padding:0;margin:0}main{padding:1rem 2rem;min-width:0}.doc{white-space:pre-wrap}
pre{background:#f6f8fa;padding:.5rem;overflow:auto;font-size:12px;margin:.25rem 0}table{border-collapse:collapse}
td,th{border:1px solid #ddd;padding:.25rem .5rem;vertical-align:top;text-align:left}.verb{font-weight:bold}
.get{color:#1a7f37}.post{color:#0969da}.put{color:#9a6700}.delete{color:#cf222e}small{color:#777;font-weight:normal}
.op{border-bottom:1px solid #eee;padding-bottom:1rem}`;
