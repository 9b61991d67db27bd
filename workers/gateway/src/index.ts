import { Hono } from 'hono';
import { onError, onNotFound } from '#shared/errors/on-error';
import { requestContext } from '#shared/log/request-context';
import { API_REFERENCE_CSP } from '#shared/service';
import { referenceLanguage, rootApiReference, rootOpenApi } from './api-docs';
import { APP_PAGE_HEADERS, BASE_SECURITY_HEADERS, renderAppPage } from './app-page';
import { moduleTraffic } from './module-traffic';

const app = new Hono<{ Bindings: GatewayEnv }>();

app.use(moduleTraffic);

// What the gateway answers itself (page, docs, errors) is never sniffed, framed or referred.
app.use(async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(BASE_SECURITY_HEADERS)) c.header(name, value);
});
app.use(requestContext(() => ({ module: 'kbchat.gateway' })));
app.onError(onError);
app.notFound(onNotFound);

app.get('/health', (c) => c.json({ ok: true }));
// `?lang=zh`: summaries, module descriptions and the page in Chinese (the web app links it so).
app.get('/openapi.json', (c) => c.json(rootOpenApi(referenceLanguage(c.req.query('lang')))));
// The API reference of all three modules, as each module serves its own at /<prefix>/docs.
app.get('/docs', (c) =>
  c.html(rootApiReference(referenceLanguage(c.req.query('lang'))), 200, {
    'Content-Security-Policy': API_REFERENCE_CSP,
  }),
);

// The web app (workers/gateway/public/assets/, built from web/): the shell here, the bundle
// and styles as static assets.
app.get('/', (c) => c.html(renderAppPage(), 200, { ...APP_PAGE_HEADERS }));

export default app;
