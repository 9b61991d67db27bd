import { translations } from '../define';

// Official answers (标准口径): the collection screen that lists and edits them, the dialog that
// writes one (also from an answer in the chat and from the gap report), and the badge on an
// answer given as written.
export const official = translations({
  en: {
    section: 'Official answers',
    intro:
      'A question at least as similar as the threshold to one of these is answered with its official answer as written, without the model. A less similar one gives it to the model first.',
    badge: 'Official answer',
    badgeTitle: 'Given as written by the collection’s owners, without the model.',
    makeOfficial: 'Make official',
    makeOfficialTitle: 'Make this answer an official answer of its collection',
    write: 'Write an official answer',
    edit: 'Edit',
    editNamed: (question: string) => `Edit: ${question}`,
    remove: 'Delete',
    removeNamed: (question: string) => `Delete: ${question}`,
    removeTitle: 'Delete this official answer?',
    removeMessage: (question: string) =>
      `Questions like “${question}” will be answered by the model from the documents again.`,
    removed: 'The official answer was deleted.',
    dialogTitle: 'Official answer',
    question: 'Question',
    answer: 'Official answer',
    citations: 'Cited passages',
    citationsHint: 'Search the collection and tick the passages the answer rests on.',
    staleUnticked:
      'Passages of documents no longer in force start unticked: tick one only if the answer should still rest on it.',
    search: 'Search the collection',
    searchButton: 'Search',
    noResults: 'No passages found.',
    passage: (id: number) => `Passage #${id}`,
    /** `place`: where in the file, its page or section (../../source-place.ts). */
    passageAt: (file: string, place: string) => `${file}, ${place}`,
    citedList: (passages: string[]) => `Cited passages: ${passages.join('; ')}`,
    save: 'Save official answer',
    saved: 'The official answer was saved.',
    notSaved: (reason: string) => `The official answer could not be saved: ${reason}`,
    loadFailed: (reason: string) => `The official answers could not be loaded: ${reason}`,
    none: 'No official answers yet.',
    onlyOwners: 'Only the owners of this collection can write official answers.',
    threshold: 'Similarity needed to answer as written',
    thresholdHint: (min: number) =>
      `Between 0.5 and 1 (default 0.9). Below it, from ${min} on, the official answer is given to the model first.`,
    saveThreshold: 'Save threshold',
    thresholdSaved: 'The threshold was saved.',
    by: (name: string, when: string) => `${name}, ${when}`,
    resolves: (count: number) =>
      count === 1
        ? 'Saving also marks 1 question of the gap report resolved.'
        : `Saving also marks ${count} questions of the gap report resolved.`,
  },
  zh: {
    section: '标准口径',
    intro:
      '与这里某个问题的相似度达到阈值的提问，直接用该标准口径原文作答，不调用模型；相似度较低的，会把标准口径作为首要参考交给模型。',
    badge: '标准口径',
    badgeTitle: '按资料集所有者审定的标准口径原文作答，未调用模型。',
    makeOfficial: '设为标准口径',
    makeOfficialTitle: '把这个回答设为其资料集的标准口径',
    write: '新建标准口径',
    edit: '编辑',
    editNamed: (question) => `编辑：${question}`,
    remove: '删除',
    removeNamed: (question) => `删除：${question}`,
    removeTitle: '删除这条标准口径？',
    removeMessage: (question) => `类似“${question}”的提问将重新由模型根据文件作答。`,
    removed: '标准口径已删除。',
    dialogTitle: '标准口径',
    question: '问题',
    answer: '标准答复',
    citations: '引用的片段',
    citationsHint: '在资料集中搜索，勾选答复所依据的片段。',
    staleUnticked: '已不再有效的文件中的片段默认不勾选：确需据其作答时再勾选。',
    search: '在资料集中搜索',
    searchButton: '搜索',
    noResults: '没有找到片段。',
    passage: (id) => `片段 #${id}`,
    passageAt: (file, place) => `${file}，${place}`,
    citedList: (passages) => `引用的片段：${passages.join('；')}`,
    save: '保存标准口径',
    saved: '标准口径已保存。',
    notSaved: (reason) => `标准口径未能保存：${reason}`,
    loadFailed: (reason) => `标准口径未能加载：${reason}`,
    none: '还没有标准口径。',
    onlyOwners: '只有资料集的所有者可以编写标准口径。',
    threshold: '按原文作答所需的相似度',
    thresholdHint: (min) =>
      `0.5 到 1 之间（默认 0.9）。低于此值但不低于 ${min} 时，标准口径作为首要参考交给模型。`,
    saveThreshold: '保存阈值',
    thresholdSaved: '阈值已保存。',
    by: (name, when) => `${name}，${when}`,
    resolves: (count) => `保存后，知识缺口报告中的 ${count} 个问题也将标记为已解决。`,
  },
});
