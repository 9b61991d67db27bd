import { describe, expect, it } from 'vitest';
import { backFromSso, routeAfterSso, ssoStartHref } from './sso';

describe('single sign-on in the web app', () => {
  it('brings the user back to the route they were on, and to nothing else', () => {
    expect(ssoStartHref('/moduleauth/sso/start', '#/keys')).toBe(
      '/moduleauth/sso/start?return_to=%23%2Fkeys',
    );
    expect(ssoStartHref('/moduleauth/sso/start', '')).toBe('/moduleauth/sso/start');
    expect(ssoStartHref('/moduleauth/sso/start', '#/sso')).toBe('/moduleauth/sso/start');
    expect(ssoStartHref('/moduleauth/sso/start', '#javascript:alert(1)')).toBe(
      '/moduleauth/sso/start',
    );
  });

  it('knows the callback’s return and where to go next', () => {
    expect(backFromSso('#/sso')).toBe(true);
    expect(backFromSso('#/sso?to=%23%2Fkeys')).toBe(true);
    expect(backFromSso('#/ssox')).toBe(false);
    expect(backFromSso('#/keys')).toBe(false);
    expect(routeAfterSso('#/sso?to=%23%2Fkeys')).toBe('#/keys');
    expect(routeAfterSso('#/sso')).toBe('');
    expect(routeAfterSso('#/sso?to=https%3A%2F%2Fevil.example')).toBe('');
    expect(routeAfterSso('#/sso?to=%2F%2Fevil.example')).toBe('');
  });
});
