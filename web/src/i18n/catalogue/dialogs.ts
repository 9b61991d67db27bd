import { translations } from '../define';

export const dialogs = translations({
  en: {
    cancel: 'Cancel',
    newPassword: 'New password',
    passwordHint: 'At least 8 characters.',
    setPassword: 'Set password',
  },
  zh: {
    cancel: '取消',
    newPassword: '新密码',
    passwordHint: '至少 8 个字符。',
    setPassword: '设置密码',
  },
});
