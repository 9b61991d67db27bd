import { translations } from '../define';
import { countOf, formatDecimal2, formatInteger } from '../format';

export const chat = translations({
  en: {
    conversation: 'Conversation',
    introTitle: 'Ask about your documents',
    intro:
      'Answers come only from the files in the knowledge base, and list the pages or sections they were found in. Select files in the knowledge base to search only those.',
    yourQuestion: 'Your question',
    placeholder: 'Ask a question…',
    hint: 'Enter to send, Shift+Enter for a new line.',
    send: 'Send',
    stop: 'Stop',
    searchingOnly: (count: number) =>
      count === 1 ? 'Searching only: ' : `Searching only these ${formatInteger(count)} files: `,
    searchAll: 'Search all files',
    inCollection: (name: string) => `In the collection “${name}”:`,
    emptyKnowledgeBase: 'The knowledge base is empty: upload a document first.',
    noneReady: (processing: number) =>
      processing === 0
        ? 'No file can be searched: none is ready.'
        : `No file can be searched yet: ${countOf(processing, { one: '# file is', other: '# files are' })} still being processed.`,
    searchingOne: 'Searching the one file.',
    searchingAll: (count: number | undefined) =>
      count === undefined
        ? 'Searching all files.'
        : `Searching all ${countOf(count, { one: '# file', other: '# files' })}.`,
    you: 'You',
    answer: 'Answer',
    askedIn: (names: string) => `In: ${names}`,
    searching: 'Searching the knowledge base…',
    writing: 'Writing the answer…',
    context: 'Prompt and retrieved context',
    sources: 'Sources',
    ocrBadge: 'OCR',
    ocrBadgeTitle: 'Text read by OCR from a scanned page: check it against the original.',
    openSource: (number: number, file: string, place: string) =>
      `Source ${formatInteger(number)}: ${file}, ${place} (opens the document at the passage)`,
    citationLabel: (number: number, file: string, place: string) =>
      `Source ${formatInteger(number)}: ${file}, ${place}`,
    alsoRetrieved: (count: number) => `Also retrieved, not cited (${formatInteger(count)})`,
    details: 'Details: scores, passages and prompt',
    detailsFile: 'Source',
    detailsSimilarity: 'Similarity',
    detailsPassage: 'Passage id',
    detailsCited: 'Cited',
    citedAs: (order: number) => `${formatInteger(order)}${['st', 'nd', 'rd'][order - 1] ?? 'th'}`,
    refusalClosest:
      'The closest passage found is not about the question closely enough to answer from:',
    refusalNothing: 'Nothing in the collection came close to the question.',
    refusalNext:
      'Try other words, or ask within that one file: a question about chosen files reads the files themselves, whatever the similarity.',
    refusalAskInFile: (file: string) => `Ask in ${file} only`,
    askingInFile: (file: string) =>
      `Asking again in ${file} only; it is ticked in the files panel until you untick it.`,
    refusalWhy: 'Why?',
    refusalScores: (similarity: number | null, threshold: number) =>
      similarity === null
        ? `No passage was similar to the question at all; an answer needs a similarity of ${formatDecimal2(threshold)}. An administrator sets this threshold.`
        : `Its similarity to the question is ${formatDecimal2(similarity)}; an answer needs ${formatDecimal2(threshold)}. An administrator sets this threshold.`,
    modeFullText: 'Answered from the whole text of the chosen files.',
    modeFileRetrieval:
      'The chosen files are too long to read whole: answered from their most relevant pages.',
    stopped: 'Stopped. ',
    failed: 'Failed. ',
    nothingSent: 'The service sent no answer.',
    incomplete: 'The answer above is incomplete.',
    nothingReceived: 'No answer was received.',
    announceDone: (sources: number) =>
      `The answer is complete, with ${countOf(sources, { one: '# source', other: '# sources' })}.`,
    announceRefused: 'No answer was given.',
    announceStopped: 'The answer was stopped.',
    announceFailed: 'The answer failed.',
    taskDone: 'done',
    taskOpen: 'not done',
    table: 'Table (scrolls sideways)',
  },
  zh: {
    conversation: '对话',
    introTitle: '就您的文件提问',
    intro:
      '回答只来自知识库中的文件，并注明出处所在的页码或章节。在知识库中勾选文件，即可只在这些文件中查找。',
    yourQuestion: '您的问题',
    placeholder: '请输入问题…',
    hint: '按 Enter 发送，Shift+Enter 换行。',
    send: '发送',
    stop: '停止',
    searchingOnly: (count) =>
      count === 1 ? '仅在此文件中查找：' : `仅在这 ${formatInteger(count)} 个文件中查找：`,
    searchAll: '在全部文件中查找',
    inCollection: (name) => `资料集“${name}”：`,
    emptyKnowledgeBase: '知识库还是空的：请先上传文件。',
    noneReady: (processing) =>
      processing === 0
        ? '没有可检索的文件：没有已就绪的文件。'
        : `暂时没有可检索的文件：${formatInteger(processing)} 个文件仍在处理中。`,
    searchingOne: '正在唯一的文件中查找。',
    searchingAll: (count) =>
      count === undefined ? '在全部文件中查找。' : `在全部 ${formatInteger(count)} 个文件中查找。`,
    you: '您',
    answer: '回答',
    askedIn: (names) => `范围：${names}`,
    searching: '正在检索知识库…',
    writing: '正在生成回答…',
    context: '提示词与检索到的上下文',
    sources: '出处',
    ocrBadge: 'OCR',
    ocrBadgeTitle: '该页文字由扫描件 OCR 识别，请与原件核对。',
    openSource: (number, file, place) =>
      `出处 ${formatInteger(number)}：${file}，${place}（在文档中打开该片段）`,
    citationLabel: (number, file, place) => `出处 ${formatInteger(number)}：${file}，${place}`,
    alsoRetrieved: (count) => `另检索到、未引用（${formatInteger(count)}）`,
    details: '详细信息：相似度、片段与提示词',
    detailsFile: '出处',
    detailsSimilarity: '相似度',
    detailsPassage: '片段编号',
    detailsCited: '引用顺序',
    citedAs: (order) => `第 ${formatInteger(order)} 处`,
    refusalClosest: '找到的最接近的片段与问题关联不够，未据此回答：',
    refusalNothing: '资料集中没有与问题相近的内容。',
    refusalNext:
      '请换个说法再问，或只在这份文件中提问：针对所选文件的提问会直接阅读文件内容，不受相似度限制。',
    refusalAskInFile: (file) => `只在 ${file} 中提问`,
    askingInFile: (file) =>
      `正在只在 ${file} 中重新提问；该文件已在文件列表中勾选，取消勾选即可恢复。`,
    refusalWhy: '为什么？',
    refusalScores: (similarity, threshold) =>
      similarity === null
        ? `没有任何内容与问题相似；回答需要相似度至少 ${formatDecimal2(threshold)}。该阈值由管理员设置。`
        : `其与问题的相似度为 ${formatDecimal2(similarity)}，回答需要至少 ${formatDecimal2(threshold)}。该阈值由管理员设置。`,
    modeFullText: '根据所选文件的全文回答。',
    modeFileRetrieval: '所选文件篇幅较长，无法全文读取：根据其中最相关的页面回答。',
    stopped: '已停止。',
    failed: '失败。',
    nothingSent: '服务没有返回回答。',
    incomplete: '以上回答不完整。',
    nothingReceived: '没有收到回答。',
    announceDone: (sources) => `回答已完成，共 ${formatInteger(sources)} 处出处。`,
    announceRefused: '没有给出回答。',
    announceStopped: '回答已停止。',
    announceFailed: '回答失败。',
    taskDone: '已完成',
    taskOpen: '未完成',
    table: '表格（可横向滚动）',
  },
});
