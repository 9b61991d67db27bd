import { translations } from '../define';
import { formatBytes, formatInteger } from '../format';

// Usage (用量) and limits (限额): my usage, everyone's (super admins) and the limits form.
export const usage = translations({
  en: {
    title: 'My usage',
    adminTitle: 'Usage of everyone',
    intro:
      'Questions asked and tokens spent on the models (the question’s embedding, and the prompt and answer of each generation), as the models reported them, per UTC day.',
    loading: 'Loading usage…',
    loadFailed: (reason: string) => `The usage could not be loaded: ${reason}`,
    period: (from: string, to: string) => `${from} to ${to}`,
    today: 'Today',
    questionsToday: 'Questions today',
    tokensToday: 'Tokens today',
    ofLimit: (used: number, limit: number | null) =>
      limit === null
        ? `${formatInteger(used)} (no limit)`
        : `${formatInteger(used)} of ${formatInteger(limit)}`,
    resetsAt: (at: string) => `The daily limits reset at ${at}.`,
    overLimit: 'You have reached a daily limit: questions are refused until it resets.',
    storageTitle: 'Storage',
    stored: (bytes: number, limit: number | null) =>
      limit === null
        ? `${formatBytes(bytes)} (no limit)`
        : `${formatBytes(bytes)} of ${formatBytes(limit)}`,
    storedHint:
      'Every file you uploaded, in any collection, older versions and failed files included. Deleting files frees their space.',
    storageFull:
      'Your storage is full: uploads are refused until you delete files or the limit is raised.',
    chartTitle: 'Tokens per day',
    chartQuestionsTitle: 'Questions per day',
    chartDescription: (days: number, max: number) =>
      `Bar chart of the last ${formatInteger(days)} days; the highest day is ${formatInteger(max)}. The same figures are in the table “Per day”.`,
    perDay: (days: number) =>
      days === 1 ? 'Per day (1 day)' : `Per day (${formatInteger(days)} days)`,
    perKey: (count: number) => `Per API key (${formatInteger(count)})`,
    perCollection: (count: number) => `Per collection (${formatInteger(count)})`,
    perUser: (count: number) => `Per user (${formatInteger(count)})`,
    totals: 'Totals',
    day: 'Day',
    key: 'API key',
    signedIn: 'Signed in (no key)',
    deletedKey: 'A deleted key',
    collection: 'Collection',
    noCollection: 'Several or none',
    unreadableCollection: 'A collection you cannot read',
    user: 'User',
    deletedUser: 'A deleted user',
    questions: 'Questions',
    embeddingTokens: 'Embedding tokens',
    promptTokens: 'Prompt tokens',
    completionTokens: 'Completion tokens',
    totalTokens: 'Total tokens',
    nothingYet: 'Nothing used in this period.',
    showDays: 'Days shown',
    // The limits form (super admins)
    limitsTitle: 'Limits',
    limitsIntro:
      'Daily limits count per user per UTC day; collection limits count every file of a collection; storage per user counts every file a user uploaded, in any collection (older versions too). Leave a box empty for no limit. Over a daily limit questions are answered 429 until midnight UTC; an upload that would pass a collection or storage limit is refused.',
    userDailyQuestions: 'Questions per user per day',
    userDailyTokens: 'Tokens per user per day',
    collectionMaxFiles: 'Files per collection',
    collectionMaxBytes: 'Storage per collection (MB)',
    userMaxBytes: 'Storage per user, all collections (MB)',
    bytesHint: (bytes: number | null) =>
      bytes === null ? 'Empty: no limit.' : `Now ${formatBytes(bytes)}.`,
    emptyNoLimit: 'Empty: no limit.',
    auditTitle: 'Audit trail',
    auditQuestions: 'Keep each question in the audit trail, with the files it cited',
    auditRetentionDays: 'Keep audit records for (days, at least 30)',
    save: 'Save limits',
    saving: 'Saving…',
    saved: 'Limits saved.',
    notSaved: (reason: string) => `The limits were not saved: ${reason}`,
    notWhole: (field: string) => `${field}: a whole number of at least 1, or empty.`,
    retentionRange: 'Keep audit records for at least 30 and at most 36,500 days.',
    deniedAdmin: 'Only super administrators see this page.',
    back: 'Back to the chat',
  },
  zh: {
    title: '我的用量',
    adminTitle: '全部用量',
    intro:
      '按 UTC 日统计的提问次数和模型令牌用量（问题的向量化，以及每次生成的提示与回答），以模型报告的数字为准。',
    loading: '正在加载用量…',
    loadFailed: (reason) => `用量加载失败：${reason}`,
    period: (from, to) => `${from} 至 ${to}`,
    today: '今日',
    questionsToday: '今日提问',
    tokensToday: '今日令牌',
    ofLimit: (used, limit) =>
      limit === null
        ? `${formatInteger(used)}（不限）`
        : `${formatInteger(used)} / ${formatInteger(limit)}`,
    resetsAt: (at) => `每日限额于 ${at} 重置。`,
    overLimit: '您已达到每日限额：在重置之前提问将被拒绝。',
    storageTitle: '存储',
    stored: (bytes, limit) =>
      limit === null
        ? `${formatBytes(bytes)}（不限）`
        : `${formatBytes(bytes)} / ${formatBytes(limit)}`,
    storedHint: '您在所有资料集中上传的全部文件，含旧版本和处理失败的文件。删除文件即可释放空间。',
    storageFull: '您的存储已满：在删除文件或提高上限之前，上传将被拒绝。',
    chartTitle: '每日令牌',
    chartQuestionsTitle: '每日提问',
    chartDescription: (days, max) =>
      `最近 ${formatInteger(days)} 天的柱状图；最高一天为 ${formatInteger(max)}。相同数字见“按日”表格。`,
    perDay: (days) => `按日（${formatInteger(days)} 天）`,
    perKey: (count) => `按 API 密钥（${formatInteger(count)}）`,
    perCollection: (count) => `按资料集（${formatInteger(count)}）`,
    perUser: (count) => `按用户（${formatInteger(count)}）`,
    totals: '合计',
    day: '日期',
    key: 'API 密钥',
    signedIn: '登录使用（无密钥）',
    deletedKey: '已删除的密钥',
    collection: '资料集',
    noCollection: '多个或无',
    unreadableCollection: '您无权查看的资料集',
    user: '用户',
    deletedUser: '已删除的用户',
    questions: '提问',
    embeddingTokens: '向量化令牌',
    promptTokens: '提示令牌',
    completionTokens: '回答令牌',
    totalTokens: '令牌合计',
    nothingYet: '此期间没有用量。',
    showDays: '显示天数',
    limitsTitle: '限额',
    limitsIntro:
      '每日限额按用户、按 UTC 日计算；资料集限额计算资料集中的全部文件；个人存储容量计算用户在所有资料集中上传的全部文件（含旧版本）。留空表示不限。超过每日限额时，提问将返回 429，直至 UTC 零点；超过资料集限额或存储容量的上传将被拒绝。',
    userDailyQuestions: '每位用户每日提问数',
    userDailyTokens: '每位用户每日令牌数',
    collectionMaxFiles: '每个资料集的文件数',
    collectionMaxBytes: '每个资料集的存储容量（MB）',
    userMaxBytes: '每位用户的存储容量，所有资料集合计（MB）',
    bytesHint: (bytes) => (bytes === null ? '留空：不限。' : `当前 ${formatBytes(bytes)}。`),
    emptyNoLimit: '留空：不限。',
    auditTitle: '操作留痕',
    auditQuestions: '在操作留痕中记录每个提问及其引用的文件',
    auditRetentionDays: '操作留痕保留天数（至少 30 天）',
    save: '保存限额',
    saving: '正在保存…',
    saved: '限额已保存。',
    notSaved: (reason) => `限额未保存：${reason}`,
    notWhole: (field) => `${field}：请填写不小于 1 的整数，或留空。`,
    retentionRange: '操作留痕保留天数须在 30 至 36,500 天之间。',
    deniedAdmin: '只有超级管理员可以查看此页面。',
    back: '返回对话',
  },
});
