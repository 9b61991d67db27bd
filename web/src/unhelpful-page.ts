import type { ConversationMessage } from './api/services';
import type { AppContext } from './context';
import { h, replace, uid } from './dom';
import { t } from './i18n/bind';
import { failureText } from './i18n/failure';
import { formatDate, formatList } from './i18n/format';
import { createMarkdownView } from './render-markdown';

const PAGE_SIZE = 20;

type Reviewed = ConversationMessage & { conversation_id: string; username: string };

/**
 * The answers users marked as not helpful, for super admins to review: the question, the
 * answer as it was given, the user's comment, who and when. Anyone may open it: the list comes
 * from the API, which answers 403 to everyone else, and the page then says so.
 */
export function createUnhelpfulPage(ctx: AppContext): HTMLElement {
  const titleId = uid('unhelpful-title');
  let page = 1;
  let total = 0;

  const heading = h(
    'h1',
    { id: titleId, tabindex: -1 },
    t((m) => m.conversations.reviewTitle),
  );
  const body = h(
    'div',
    { class: 'review-body' },
    h(
      'p',
      { class: 'loading' },
      t((m) => m.conversations.reviewLoading),
    ),
  );
  const root = h(
    'section',
    { class: 'page review-page', 'aria-labelledby': titleId },
    heading,
    h(
      'p',
      { class: 'page-intro' },
      t((m) => m.conversations.reviewIntro),
    ),
    body,
  );

  async function load(): Promise<void> {
    try {
      const answer = await ctx.api.chat.GetUnhelpfulAnswers(
        { page, size: PAGE_SIZE },
        { signal: ctx.signal },
      );
      total = answer.total;
      if (answer.items.length === 0 && page > 1) {
        page -= 1;
        return load();
      }
      render(answer.items);
    } catch (err) {
      if (ctx.signal.aborted) return;
      const failure = ctx.fail(err);
      if (failure.status === 401) return;
      if (failure.status === 403) {
        replace(
          heading,
          t((m) => m.users.accessDenied),
        );
        replace(
          body,
          h(
            'div',
            { class: 'denied' },
            h(
              'p',
              null,
              t((m) => m.conversations.onlySuperAdmins),
            ),
            h(
              'p',
              null,
              h(
                'a',
                { href: '#/' },
                t((m) => m.users.backToChat),
              ),
            ),
          ),
        );
        return;
      }
      replace(
        body,
        h(
          'p',
          { class: 'notice error', role: 'alert' },
          t((m) => m.conversations.reviewLoadFailed(failureText(failure, m))),
        ),
      );
    }
  }

  function render(items: Reviewed[]): void {
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    const shownTotal = total;
    const shownPage = page;
    replace(
      body,
      h(
        'p',
        { class: 'count' },
        t((m) => m.conversations.reviewCount(shownTotal)),
      ),
      items.length === 0
        ? h(
            'p',
            { class: 'empty' },
            t((m) => m.conversations.reviewNone),
          )
        : h('ol', { class: 'review-list' }, items.map(item)),
      pages > 1 &&
        h(
          'nav',
          { class: 'pager', 'aria-label': t((m) => m.conversations.reviewPages) },
          h(
            'button',
            {
              type: 'button',
              class: 'button small',
              disabled: page <= 1,
              on: { click: () => go(page - 1) },
            },
            t((m) => m.conversations.previous),
          ),
          h(
            'span',
            null,
            t((m) => m.conversations.pageOf(shownPage, pages)),
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'button small',
              disabled: page >= pages,
              on: { click: () => go(page + 1) },
            },
            t((m) => m.conversations.next),
          ),
        ),
    );
  }

  function go(to: number): void {
    page = to;
    void load();
  }

  function item(reviewed: Reviewed): HTMLLIElement {
    const answer = h('div', { class: 'markdown review-answer' });
    if (reviewed.status === 'complete' || reviewed.status === 'incomplete') {
      createMarkdownView(answer).update(reviewed.answer.replace(/<(?=[A-Za-z/!?])/g, '＜'));
    } else answer.append(h('p', null, reviewed.answer));
    const comment = reviewed.feedback?.comment;
    const at = reviewed.feedback?.at ?? reviewed.created_at;
    const sources = [...new Set(reviewed.sources.map((source) => source.file_name))];
    const field = (label: Parameters<typeof t>[0], ...value: Parameters<typeof h>[2][]) =>
      h('div', { class: 'review-field' }, h('dt', null, t(label)), h('dd', null, ...value));
    return h(
      'li',
      { class: 'card review-item', 'data-message-id': reviewed.id },
      h(
        'dl',
        null,
        field(
          (m) => m.conversations.question,
          h('p', { class: 'review-question' }, reviewed.question),
        ),
        field((m) => m.conversations.answer, answer),
        sources.length > 0 &&
          field(
            (m) => m.conversations.sources,
            t(() => formatList(sources)),
          ),
        field(
          (m) => m.conversations.commentLabel,
          comment
            ? h('p', { class: 'review-comment' }, comment)
            : h(
                'p',
                { class: 'muted' },
                t((m) => m.conversations.noComment),
              ),
        ),
        field((m) => m.conversations.user, h('span', { class: 'review-user' }, reviewed.username)),
        field(
          (m) => m.conversations.markedAt,
          h(
            'time',
            { datetime: at },
            t(() => formatDate(at)),
          ),
        ),
      ),
    );
  }

  void load();
  return root;
}
