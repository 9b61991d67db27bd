import { translations } from '../define';

/** Which model answers (the offline notice) and a conversation's record (Markdown, PDF). */
export const record = translations({
  en: {
    offlineNotice: 'offline demo model: answers are extracts; connect a model',
    offlineLead: 'offline demo model: answers are extracts;',
    connectModel: 'connect a model',
    connectHelp:
      'The answers come from the offline demo model, which quotes the retrieved passages instead of writing. Set OPENAI_API_KEY, or MODEL_BASE_URL and MODEL_API_KEY for any OpenAI-compatible provider (DeepSeek, Qwen) or a local Ollama, and start npm run dev again.',
    readmeSection: 'README.md, section “Connect a model”',
    exportMarkdown: 'Export Markdown',
    exportMarkdownNamed: (title: string) => `Export Markdown: “${title}”`,
    savePdf: 'Save as PDF',
    savePdfNamed: (title: string) => `Save as PDF: “${title}”`,
  },
  zh: {
    offlineNotice: '离线演示模型：回答为原文摘录；请接入模型',
    offlineLead: '离线演示模型：回答为原文摘录；',
    connectModel: '请接入模型',
    connectHelp:
      '当前回答来自离线演示模型，它摘录检索到的原文，而不是撰写回答。设置 OPENAI_API_KEY，或为任一兼容 OpenAI 的服务（DeepSeek、通义千问）或本地 Ollama 设置 MODEL_BASE_URL 和 MODEL_API_KEY，然后重新运行 npm run dev。',
    readmeSection: 'README.md 中的“Connect a model”一节',
    exportMarkdown: '导出 Markdown',
    exportMarkdownNamed: (title: string) => `导出 Markdown：“${title}”`,
    savePdf: '保存为 PDF',
    savePdfNamed: (title: string) => `保存为 PDF：“${title}”`,
  },
});
