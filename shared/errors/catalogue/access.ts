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
    zh: '你没有执行此操作的权限。',
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
  too_many_api_keys: {
    status: 409,
    en: 'You hold as many API keys as allowed: revoke one first.',
    zh: 'API 密钥数量已达上限：请先撤销一个。',
  },
});
