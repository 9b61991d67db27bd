import { translations } from '../define';
import { formatInteger } from '../format';

// What became of a cited file since the answer (an old conversation's sources, the document
// viewer): a newer version, deleted, no longer readable.
export const sourcesNow = translations({
  en: {
    newer: 'Newer version',
    newerText: (name: string, version: number, since: string | null) =>
      `Newer version: ${name} (version ${formatInteger(version)}${since ? `, since ${since}` : ''}). The answer was based on the version it cites.`,
    notCurrent: 'Not the current version',
    notCurrentText: 'This file is no longer the version searched.',
    restoredText: (name: string, version: number) =>
      `Not the current version: an older one was made current again, ${name} (version ${formatInteger(version)}). The answer was based on the version it cites.`,
    openCurrent: (name: string, since: string | null) =>
      `Current: ${name}${since ? `, ${since}` : ''}`,
    openCurrentNamed: (name: string) => `Open the current version: ${name}`,
    deleted: 'Deleted since',
    deletedText: 'This file was deleted after the answer.',
    unavailable: 'No longer available',
    unavailableText: 'You may no longer read this file.',
    viewerOld: (name: string, version: number) =>
      `This is not the current version of this file. The current one is ${name} (version ${formatInteger(version)}).`,
    viewerOldNoCurrent: 'This is not the current version of this file.',
    viewerOpenCurrent: 'Open the current version',
  },
  zh: {
    newer: '已有新版本',
    newerText: (name, version, since) =>
      `已有新版本：${name}（第 ${formatInteger(version)} 版${since ? `，${since} 起` : ''}）。本回答依据的是所引用的版本。`,
    notCurrent: '已不是当前版本',
    notCurrentText: '该文件已不是当前检索的版本。',
    restoredText: (name, version) =>
      `已不是当前版本：已恢复较早的版本 ${name}（第 ${formatInteger(version)} 版）为当前版本。本回答依据的是所引用的版本。`,
    openCurrent: (name, since) => `当前版本：${name}${since ? `（${since}）` : ''}`,
    openCurrentNamed: (name) => `打开当前版本：${name}`,
    deleted: '已删除',
    deletedText: '该文件在回答之后已被删除。',
    unavailable: '已不可查看',
    unavailableText: '您已无权查看该文件。',
    viewerOld: (name, version) =>
      `这不是该文件的当前版本。当前版本为 ${name}（第 ${formatInteger(version)} 版）。`,
    viewerOldNoCurrent: '这不是该文件的当前版本。',
    viewerOpenCurrent: '打开当前版本',
  },
});
