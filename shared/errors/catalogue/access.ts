import { errorGroup } from './entry.ts';

/** Who may do what: credentials, roles, accounts and keys. */
export const accessErrors = errorGroup({
  /** The original's role middleware answers 401 with this fixed plain text. */
  unauthenticated: {
    status: 401,
    detail: 'Unauthorised',
    en: 'Your session has expired or was refused.',
    zh: '登录已过期或被拒绝。',
  },
  /** …and 403 with this one. */
  permission_denied: {
    status: 403,
    detail: 'Access denied',
    en: 'You are not allowed to do that.',
    zh: '您没有执行此操作的权限。',
  },
  login_required: {
    status: 403,
    detail: 'An API key cannot do this: log in (POST /moduleauth/login) and use the login token.',
    en: 'An API key cannot do this: log in to do it.',
    zh: 'API 密钥不能执行此操作：请登录后再操作。',
  },
  api_key_required: {
    status: 403,
    detail:
      'This takes an API key (Authorization: Bearer kbc_…), not a login token: create one with POST /moduleauth/api_key.',
    en: 'This takes an API key, not a login.',
    zh: '此操作需要 API 密钥，而不是登录令牌。',
  },
  too_many_attempts: {
    status: 429,
    en: 'Too many failed attempts. Wait a while (at most 15 minutes) and try again.',
    zh: '失败次数过多。请稍候（最长 15 分钟）再试。',
  },
  wrong_password: {
    status: 400,
    en: 'The current password is wrong.',
    zh: '当前密码不正确。',
  },
  password_changed: {
    status: 409,
    en: 'The password was changed meanwhile. Try again.',
    zh: '密码刚刚已被修改，请重试。',
  },
  username_taken: {
    status: 409,
    en: 'That username is taken.',
    zh: '该用户名已被使用。',
  },
  last_super_admin: {
    status: 409,
    en: 'The last super admin cannot be removed, disabled or made a user.',
    zh: '不能删除、停用或降级最后一位超级管理员。',
  },
  passwords_off: {
    status: 403,
    detail:
      'Passwords are turned off here (AUTH_LOCAL_PASSWORDS=off): sign in with single sign-on.',
    en: 'Passwords are turned off here: sign in with single sign-on.',
    zh: '本服务已关闭密码登录：请使用单点登录。',
  },
  sso_off: {
    status: 404,
    en: 'Single sign-on is not set up here.',
    zh: '本服务未设置单点登录。',
  },
  sso_expired: {
    status: 400,
    en: 'This sign-in has expired or was already used. Start it again.',
    zh: '此次登录已过期或已使用，请重新开始。',
  },
  sso_refused: {
    status: 401,
    en: 'The identity provider did not sign you in.',
    zh: '身份提供方未完成登录。',
  },
  sso_invalid: {
    status: 401,
    en: 'The identity provider’s answer could not be verified, so you were not signed in.',
    zh: '无法验证身份提供方的应答，未能登录。',
  },
  sso_unavailable: {
    status: 502,
    en: 'The identity provider cannot be reached. Try again later.',
    zh: '无法连接身份提供方，请稍后再试。',
  },
  sso_busy: {
    status: 503,
    en: 'Too many sign-ins are under way at once. Try again in a few minutes.',
    zh: '同时进行的登录过多，请几分钟后再试。',
  },
  sso_no_account: {
    status: 403,
    en: 'There is no account here for you. Ask an administrator to create one.',
    zh: '此处没有您的账号，请联系管理员创建。',
  },
  sso_account_disabled: {
    status: 403,
    en: 'Your account here is disabled.',
    zh: '您在此处的账号已被停用。',
  },
  /** The provider's role claim would have made the last active super admin a user. */
  sso_last_super_admin: {
    status: 409,
    en: 'Your identity provider no longer counts you as an administrator, but you are the last super admin here, so you were not signed in. Make someone else a super admin first, or ask for the role at the provider.',
    zh: '身份提供方已不再将您视为管理员，但您是此处最后一位超级管理员，因此未能登录。请先将他人设为超级管理员，或向身份提供方申请恢复该角色。',
  },
  sso_nothing_waiting: {
    status: 404,
    en: 'No single sign-on is waiting here. Start it again.',
    zh: '没有待完成的单点登录，请重新开始。',
  },
  too_many_api_keys: {
    status: 409,
    en: 'You hold as many API keys as allowed: revoke one first.',
    zh: 'API 密钥数量已达上限：请先撤销一个。',
  },
});
