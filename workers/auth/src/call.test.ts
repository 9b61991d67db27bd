import { describe, expect, it } from 'vitest';
import { clientAddress, type AuthCall } from './call';

function callWith(trust: string, header: string | undefined): AuthCall {
  const env = { TRUST_CF_CONNECTING_IP: trust } as unknown as AuthEnv;
  const http = {
    req: { header: (name: string) => (name === 'CF-Connecting-IP' ? header : undefined) },
  };
  return { env, http } as unknown as AuthCall;
}

describe('the client address the login throttle counts by', () => {
  it('is CF-Connecting-IP where Cloudflare sets it (TRUST_CF_CONNECTING_IP=true)', () => {
    expect(clientAddress(callWith('true', '203.0.113.7'))).toBe('203.0.113.7');
    expect(clientAddress(callWith('true', '2001:DB8::1'))).toBe('2001:db8::1');
  });

  it('is one shared "unknown" address where any client could send the header (wrangler dev)', () => {
    for (const forged of ['203.0.113.7', '198.51.100.1', undefined]) {
      expect(clientAddress(callWith('false', forged))).toBe('unknown');
    }
  });

  it('is "unknown" when the header is missing or absurd', () => {
    expect(clientAddress(callWith('true', undefined))).toBe('unknown');
    expect(clientAddress(callWith('true', 'x'.repeat(200)))).toBe('unknown');
  });
});
