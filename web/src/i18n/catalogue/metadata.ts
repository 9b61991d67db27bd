import { translations } from '../define';

/** A relation as a file sees it (the contract's FileRelation.relation). */
export type RelationName =
  | 'amends'
  | 'repeals'
  | 'replaces'
  | 'implements'
  | 'amended_by'
  | 'repealed_by'
  | 'replaced_by'
  | 'implemented_by'
  | 'UNKNOWN';

/** The statuses a badge is shown for (a document in force has none); `replaced` is a repeal by
 * the document that takes its place. */
export type NotInForce = 'amended' | 'repealed' | 'replaced' | 'expired';

// What a document says of itself (文号, issuers, dates) in the file list, whether it still
// holds, and the dialog that corrects it.
export const metadata = translations({
  en: {
    editDetails: 'Edit details',
    // The visible words first: a name that starts with them is what speech input users say.
    editDetailsNamed: (name: string) => `Edit details: ${name}`,
    dialogTitle: (name: string) => `Details of ${name}`,
    dialogMessage:
      'What the document says of itself, as read from it. What you change here is kept when the file is read again.',
    title: 'Title',
    docNumber: 'Document number',
    issuers: 'Issuing bodies (one per line)',
    issuedOn: 'Date of issue',
    effectiveOn: 'In force from',
    expiresOn: 'Valid until',
    docType: 'Type',
    correctedHint: 'Set by a person.',
    save: 'Save details',
    saved: (name: string) => `The details of ${name} were saved.`,
    notSaved: (name: string, reason: string) =>
      `The details of ${name} could not be saved: ${reason}`,
    onlyManagerMay: 'Only whoever may manage this file can change its details.',
    relations: 'Relations to other documents',
    noRelations: 'None known.',
    relation: (kind: RelationName): string =>
      ({
        amends: 'Amends',
        repeals: 'Repeals',
        replaces: 'Replaces',
        implements: 'Implements',
        amended_by: 'Amended by',
        repealed_by: 'Repealed by',
        replaced_by: 'Replaced by',
        implemented_by: 'Implemented by',
        UNKNOWN: 'Related to',
      })[kind],
    foundInText: 'found in the text',
    statedByOther: 'stated by the other document; change it there',
    removeRelation: (what: string) => `Remove the relation: ${what}`,
    remove: 'Remove',
    addRelation: 'Add a relation',
    relationKind: 'This document…',
    otherDocNumber: 'Other document’s number',
    otherTitle: 'Other document’s title',
    add: 'Add',
    needsName: 'Give the other document’s number or its title.',
    notChanged: (reason: string) => `The relation could not be changed: ${reason}`,
    badge: (status: NotInForce): string =>
      ({ repealed: 'Repealed', replaced: 'Replaced', amended: 'Amended', expired: 'Expired' })[
        status
      ],
    by: (status: Exclude<NotInForce, 'expired'>, what: string): string =>
      ({
        repealed: `Repealed by ${what}`,
        replaced: `Replaced by ${what}`,
        amended: `Amended by ${what}`,
      })[status],
    expiredOn: (date: string) => `Expired on ${date}`,
    detailsOf: (name: string) => `Details of ${name}`,
  },
  zh: {
    editDetails: '编辑信息',
    editDetailsNamed: (name: string) => `编辑信息：${name}`,
    dialogTitle: (name: string) => `${name} 的文件信息`,
    dialogMessage: '从文件中读出的文件自身信息。您在这里修改的内容，在文件重新处理时保留。',
    title: '标题',
    docNumber: '文号',
    issuers: '发文机关（每行一个）',
    issuedOn: '成文日期',
    effectiveOn: '施行日期',
    expiresOn: '有效期至',
    docType: '文种',
    correctedHint: '由人工设定。',
    save: '保存信息',
    saved: (name: string) => `已保存 ${name} 的文件信息。`,
    notSaved: (name: string, reason: string) => `${name} 的文件信息未能保存：${reason}`,
    onlyManagerMay: '只有可以管理此文件的人才能修改其信息。',
    relations: '与其他文件的关系',
    noRelations: '暂无。',
    relation: (kind: RelationName): string =>
      ({
        amends: '修改',
        repeals: '废止',
        replaces: '替代',
        implements: '贯彻落实',
        amended_by: '被修改：',
        repealed_by: '被废止：',
        replaced_by: '被替代：',
        implemented_by: '被贯彻落实：',
        UNKNOWN: '相关',
      })[kind],
    foundInText: '从正文识别',
    statedByOther: '由其他文件声明，在该文件中修改',
    removeRelation: (what: string) => `删除关系：${what}`,
    remove: '删除',
    addRelation: '添加关系',
    relationKind: '本文件…',
    otherDocNumber: '另一文件的文号',
    otherTitle: '另一文件的标题',
    add: '添加',
    needsName: '请填写另一文件的文号或标题。',
    notChanged: (reason: string) => `关系未能修改：${reason}`,
    badge: (status: NotInForce): string =>
      ({ repealed: '已废止', replaced: '已被替代', amended: '已修改', expired: '已过期' })[status],
    by: (status: Exclude<NotInForce, 'expired'>, what: string): string =>
      ({
        repealed: `已被 ${what} 废止`,
        replaced: `已被 ${what} 替代`,
        amended: `已被 ${what} 修改`,
      })[status],
    expiredOn: (date: string) => `已于 ${date} 失效`,
    detailsOf: (name: string) => `${name} 的文件信息`,
  },
});
