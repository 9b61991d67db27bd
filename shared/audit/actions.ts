/**
 * Every action the audit trail records, once: `<module>.<what>`. Records name one of these;
 * the web app's audit screen translates them (web/src/i18n/catalogue/audit.ts).
 */
export const AUDIT_ACTIONS = [
  // auth: signing in and out, sessions, keys, users, settings
  'auth.login',
  'auth.sso_login',
  'auth.logout',
  'auth.logout_all',
  'auth.logout_others',
  'auth.signup',
  'auth.password_change',
  'auth.key_create',
  'auth.key_revoke',
  'auth.user_create',
  'auth.user_role',
  'auth.user_status',
  'auth.user_password_reset',
  'auth.user_logout_all',
  'auth.user_delete',
  'auth.audit_export',
  'auth.audit_prune',
  // knowledge: documents and collections
  'knowledge.upload',
  'knowledge.delete',
  'knowledge.move',
  'knowledge.metadata_edit',
  'knowledge.relation_add',
  'knowledge.relation_remove',
  'knowledge.chunk_edit',
  'knowledge.chunk_switch',
  'knowledge.file_switch',
  'knowledge.version_restore',
  'knowledge.reindex',
  'knowledge.collection_create',
  'knowledge.collection_update',
  'knowledge.collection_delete',
  'knowledge.member_add',
  'knowledge.member_role',
  'knowledge.member_remove',
  // chat: questions, official answers, exports, limits
  'chat.question',
  'chat.official_answer_save',
  'chat.official_answer_delete',
  'chat.answer_settings_update',
  'chat.conversation_export',
  'chat.gaps_export',
  'chat.limits_update',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_OUTCOMES = ['ok', 'denied', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];
