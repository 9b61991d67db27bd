import type { ModuleOptions } from '#shared/module/module-app';

export const KNOWLEDGE_MODULE: ModuleOptions = {
  prefix: '/moduleknowledge',
  defaultName: 'kbchat.knowledge.ModuleKnowledge',
  nameVariable: 'KNOWLEDGE_MODULE_NAME',
};
