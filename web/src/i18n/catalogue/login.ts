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
  },
  zh: {
    title: '知识库问答',
    lead: '登录后即可就你的文档提问。',
    username: '用户名',
    password: '密码',
    logIn: '登录',
    pageTitle: '登录',
    wrongCredentials: '用户名或密码错误，或该账号已被停用。',
  },
});
