import type { ModuleOptions } from '#shared/module/module-app';

export const AUTH_MODULE: ModuleOptions = {
  prefix: '/moduleauth',
  defaultName: 'kbchat.auth.ModuleAuth',
  nameVariable: 'AUTH_MODULE_NAME',
};
