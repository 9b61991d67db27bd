import { translations } from '../define';

export const login = translations({
  en: {
    title: 'Knowledge-base chat',
    lead: 'Log in to ask questions about your documents.',
    username: 'Username',
    password: 'Password',
    logIn: 'Log in',
    pageTitle: 'Log in',
    wrongCredentials: 'Wrong username or password, or the account is disabled.',
    /** The single sign-on button, with the provider's name (OIDC_LABEL). */
    signInWith: (label: string) => `Sign in with ${label}`,
    or: 'or',
    ssoLead: 'Sign in with your organisation’s account.',
    ssoSigningIn: 'Signing you in…',
  },
  zh: {
    title: '知识库问答',
    lead: '登录后即可就您的文件提问。',
    username: '用户名',
    password: '密码',
    logIn: '登录',
    pageTitle: '登录',
    wrongCredentials: '用户名或密码错误，或该账号已被停用。',
    // A space between Chinese and a Latin name (使用 Keycloak 登录), none beside a Chinese one.
    signInWith: (label) => {
      const pad = (char: string | undefined) => (char && /[\p{Script=Han}]/u.test(char) ? '' : ' ');
      return `使用${pad(label.at(0))}${label}${pad(label.at(-1))}登录`;
    },
    or: '或',
    ssoLead: '请使用您所在单位的账号登录。',
    ssoSigningIn: '正在登录…',
  },
});
