// Logging in for the evaluation. Unlike the loopback-only bench client, this may talk to a
// remote service: it never follows a redirect (which would re-send the password elsewhere) and
// gives up after a timeout.

export async function logIn(base: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${base}/moduleauth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
    redirect: 'error',
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: { token: string } }).data.token;
}
