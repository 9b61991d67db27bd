import { describe, expect, it } from 'vitest';
import { login } from './login';

describe('the single sign-on button', () => {
  it('sets a Latin provider name apart from the Chinese words, and a Chinese one not', () => {
    expect(login.zh.signInWith('Local ID')).toBe('使用 Local ID 登录');
    expect(login.zh.signInWith('统一身份认证平台')).toBe('使用统一身份认证平台登录');
    expect(login.zh.signInWith('浙政钉 SSO')).toBe('使用浙政钉 SSO 登录');
    expect(login.en.signInWith('Keycloak')).toBe('Sign in with Keycloak');
  });
});
