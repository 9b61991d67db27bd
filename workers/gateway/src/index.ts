import { Hono } from 'hono';
import { onError, onNotFound } from '../../../shared/errors/on-error';
import { requestContext } from '../../../shared/log/request-context';
import { renderDocsPage } from '../../../shared/service';
import { rootOpenApi } from './api-docs';
import { moduleFor } from './routes';

const app = new Hono<{ Bindings: GatewayEnv }>();

// Module traffic goes straight through: the response body (SSE included) is streamed, never
// buffered, and the module sets its own request id, logs and errors.
app.use(async (c, next) => {
  const binding = moduleFor(c.req.path);
  if (!binding) return next();
  return c.env[binding].fetch(c.req.raw);
});

app.use(requestContext(() => ({ module: 'kbchat.gateway' })));
app.onError(onError);
app.notFound(onNotFound);

app.get('/health', (c) => c.json({ ok: true }));
app.get('/openapi.json', (c) => c.json(rootOpenApi()));
app.get('/docs', (c) => c.html(renderDocsPage(rootOpenApi())));

app.get('/', (c) =>
  c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Knowledge-base chat</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Knowledge-base chat</h1>
<ul>
<li><a href="/moduleauth/health">/moduleauth</a>: users, login tokens, roles</li>
<li><a href="/moduleknowledge/health">/moduleknowledge</a>: PDF knowledge base and similarity queries</li>
<li><a href="/modulechat/health">/modulechat</a>: answers from the knowledge base, streamed over SSE</li>
</ul>
<p>API: <a href="/docs">documentation</a>, <a href="/openapi.json">OpenAPI 3.0</a>.</p></body></html>`),
);

export default app;
