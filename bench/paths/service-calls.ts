// The routes the request-path bench times, over HTTP to the isolated stack's one port, each
// read to its end. A route that does not answer 200 stops the bench: a fast error is no figure.
const TIMEOUT_MS = 15_000;

export interface Service {
  base: string;
  token: string;
}

async function call(url: string, init: RequestInit = {}): Promise<string> {
  const res = await fetch(url, {
    ...init,
    redirect: 'error',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const body = await res.text();
  if (res.status !== 200) {
    throw new Error(
      `${init.method ?? 'GET'} ${new URL(url).pathname} answered ${res.status}: ${body.slice(0, 300)}`,
    );
  }
  return body;
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export async function login(base: string, username: string, password: string): Promise<string> {
  const body = await call(`${base}/moduleauth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return (JSON.parse(body) as { data: { token: string } }).data.token;
}

export async function me(service: Service): Promise<void> {
  await call(`${service.base}/moduleauth/me`, { headers: bearer(service.token) });
}

export async function query(
  service: Service,
  text: string,
  top: number,
  mode: 'hybrid' | 'vector' = 'hybrid',
): Promise<number> {
  const params = new URLSearchParams({ text, top: String(top), mode });
  const body = await call(`${service.base}/moduleknowledge/query?${params}`, {
    headers: bearer(service.token),
  });
  return (JSON.parse(body) as { data: unknown[] }).data.length;
}

export async function list(service: Service, fileId: string): Promise<number> {
  const params = new URLSearchParams({ file_id: fileId });
  const body = await call(`${service.base}/moduleknowledge/list?${params}`, {
    headers: bearer(service.token),
  });
  return (JSON.parse(body) as { data: unknown[] }).data.length;
}

export async function upload(
  service: Service,
  pdf: Uint8Array,
  name: string,
  timeoutMs: number,
): Promise<{ id: string; pages: number; chunks: number; duplicate: boolean }> {
  const form = new FormData();
  form.append('file', new File([pdf], name, { type: 'application/pdf' }));
  const res = await fetch(`${service.base}/moduleknowledge/upload`, {
    method: 'POST',
    headers: bearer(service.token),
    body: form,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${body.slice(0, 300)}`);
  return (
    JSON.parse(body) as { data: { id: string; pages: number; chunks: number; duplicate: boolean } }
  ).data;
}
