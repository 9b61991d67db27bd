import { translations } from '../define';
import { formatInteger } from '../format';

/** The pager under a long list (users, unhelpful answers): each list names its own pager. */
export const pager = translations({
  en: {
    previous: 'Previous',
    next: 'Next',
    pageOf: (page: number, pages: number) =>
      `Page ${formatInteger(page)} of ${formatInteger(pages)}`,
  },
  zh: {
    previous: '上一页',
    next: '下一页',
    pageOf: (page, pages) => `第 ${formatInteger(page)} 页，共 ${formatInteger(pages)} 页`,
  },
});
