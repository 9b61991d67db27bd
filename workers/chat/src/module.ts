import type { ModuleOptions } from '#shared/module/module-app';

export const CHAT_MODULE: ModuleOptions = {
  prefix: '/modulechat',
  defaultName: 'kbchat.chat.ModuleChat',
  nameVariable: 'CHAT_MODULE_NAME',
};
