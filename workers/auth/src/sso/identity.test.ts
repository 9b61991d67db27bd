import { describe, expect, it } from 'vitest';
import type { SsoSettings } from '../config';
import { claimHolds, freeUsername, identityOf } from './identity';
import type { IdClaims } from './provider';

const settings: SsoSettings = {
  issuer: 'https://id.example.org/realms/office',
  clientId: 'kbchat',
  clientSecret: 'secret',
  label: 'Office ID',
  scopes: 'openid profile email',
  redirectUri: undefined,
  matchEmail: true,
  createUsers: true,
  maxPending: { total: 10_000, perAddress: 100 },
  adminClaim: undefined,
};

const claims = (extra: Record<string, unknown>): IdClaims => ({
  iss: settings.issuer,
  sub: '8f14e45f-ceea-467f-a0d6-6f0e2f1c6a01',
  aud: 'kbchat',
  iat: 1,
  exp: 2,
  ...extra,
});

describe('identityOf', () => {
  it('offers preferred_username, then email, then sub as usernames', () => {
    const identity = identityOf(
      claims({ preferred_username: 'wang.xm', email: 'wang@example.org' }),
      settings,
    );
    expect(identity.usernames).toEqual([
      'wang.xm',
      'wang@example.org',
      '8f14e45f-ceea-467f-a0d6-6f0e2f1c6a01',
    ]);
    expect(identity.issuer).toBe(settings.issuer);
    expect(identity.subject).toBe('8f14e45f-ceea-467f-a0d6-6f0e2f1c6a01');
  });

  it('keeps an email for linking only when the provider says it is verified', () => {
    expect(identityOf(claims({ email: 'a@example.org' }), settings).verifiedEmail).toBeUndefined();
    expect(
      identityOf(claims({ email: 'a@example.org', email_verified: 'true' }), settings)
        .verifiedEmail,
    ).toBeUndefined();
    expect(
      identityOf(claims({ email: 'a@example.org', email_verified: true }), settings).verifiedEmail,
    ).toBe('a@example.org');
  });

  it('drops names that could not be usernames (too short, invisible characters, mixed scripts)', () => {
    const identity = identityOf(
      claims({ preferred_username: 'ab', email: 'p\u202Eaypal@example.org', name: 'x' }),
      settings,
    );
    expect(identity.usernames).toEqual(['8f14e45f-ceea-467f-a0d6-6f0e2f1c6a01']);
    expect(
      identityOf(claims({ preferred_username: 'аdmin' /* Cyrillic а */ }), settings).usernames,
    ).not.toContain('аdmin');
  });

  it('folds full-width names (NFKC) and keeps Chinese names', () => {
    expect(identityOf(claims({ preferred_username: 'ａｌｉｃｅ' }), settings).usernames[0]).toBe(
      'alice',
    );
    expect(identityOf(claims({ preferred_username: '王小明' }), settings).usernames[0]).toBe(
      '王小明',
    );
  });

  it('sets the role only when a role claim is configured', () => {
    const groups = claims({ groups: ['staff', 'kbchat-admins'] });
    expect(identityOf(groups, settings).superAdmin).toBeUndefined();
    const withRule = { ...settings, adminClaim: { claim: 'groups', value: 'kbchat-admins' } };
    expect(identityOf(groups, withRule).superAdmin).toBe(true);
    expect(identityOf(claims({ groups: ['staff'] }), withRule).superAdmin).toBe(false);
    expect(identityOf(claims({}), withRule).superAdmin).toBe(false);
  });
});

describe('claimHolds', () => {
  it('matches a value, a list member, or a dotted path into objects (Keycloak realm roles)', () => {
    const rule = { claim: 'realm_access.roles', value: 'admin' };
    expect(claimHolds({ realm_access: { roles: ['user', 'admin'] } }, rule)).toBe(true);
    expect(claimHolds({ realm_access: { roles: ['user'] } }, rule)).toBe(false);
    expect(claimHolds({ realm_access: 'admin' }, rule)).toBe(false);
    expect(claimHolds({ role: 'admin' }, { claim: 'role', value: 'admin' })).toBe(true);
    expect(claimHolds({ role: 'administrator' }, { claim: 'role', value: 'admin' })).toBe(false);
    expect(claimHolds({ role: ['x'] }, { claim: 'role.length', value: '1' })).toBe(false);
  });
});

describe('freeUsername', () => {
  it('takes the first candidate nobody has (names compared without case)', () => {
    expect(freeUsername(['Wang', 'wang@example.org'], new Set())).toBe('Wang');
    expect(freeUsername(['Wang', 'wang@example.org'], new Set(['wang']))).toBe('wang@example.org');
  });

  it('numbers the first candidate when every candidate is taken, within 50 characters', () => {
    expect(freeUsername(['wang'], new Set(['wang', 'wang-2']))).toBe('wang-3');
    const long = 'x'.repeat(50);
    const name = freeUsername([long], new Set([long]));
    expect(name).toBe(`${'x'.repeat(48)}-2`);
    expect(name.length).toBe(50);
  });
});

describe('a user made by single sign-on', () => {
  it('has an empty password hash, which no password verifies against', async () => {
    const { verifyPassword } = await import('../identity/password');
    expect(await verifyPassword('', '')).toBe(false);
    expect(await verifyPassword('anything at all', '')).toBe(false);
  });
});
