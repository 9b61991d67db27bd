import { useRef, useState } from 'preact/hooks';
import type { Failure } from '../api/services';
import { Denied, OutcomeLines, Page, useOutcome } from '../components/page';
import { usePagedList } from '../components/paged-list';
import { Pager } from '../components/pager';
import { useApp } from '../context';
import { t } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages } from '../i18n/messages';
import { ReviewItem, type Reviewed } from './review-item';

const PAGE_SIZE = 20;

/**
 * The answers users marked as not helpful, for super admins to review (`#/unhelpful`): the
 * question, the answer as it was given, the user's comment, who and when. Anyone may open it:
 * the list comes from the API, which answers 403 to everyone else, and the page then says so.
 */
export function UnhelpfulPage() {
  const ctx = useApp();
  const [refused, setRefused] = useState<Failure | 'denied' | undefined>();
  // Open answers by default; the switch shows the resolved ones too.
  const [withResolved, setWithResolved] = useState(false);
  const showResolved = useRef(false);
  const outcome = useOutcome();
  const list = usePagedList<Reviewed>(
    PAGE_SIZE,
    (page, size) =>
      ctx.api.chat.GetUnhelpfulAnswers(
        { page, size, ...(showResolved.current ? { resolved: true } : {}) },
        { signal: ctx.signal },
      ),
    (err) => {
      if (ctx.signal.aborted) return;
      const failure = ctx.fail(err);
      if (failure.status !== 401) setRefused(failure.status === 403 ? 'denied' : failure);
    },
  );
  const m = messages();
  const shown = list.shown;

  async function resolve(reviewed: Reviewed, resolved: boolean): Promise<void> {
    try {
      await ctx.api.chat.PutUnhelpfulResolved(
        { body: { message_id: reviewed.id, resolved } },
        { signal: ctx.signal },
      );
      outcome.done(t((m) => (resolved ? m.gaps.resolved : m.gaps.reopened)));
      await list.load();
    } catch (err) {
      if (ctx.signal.aborted) return;
      const failure = ctx.fail(err);
      if (failure.status !== 401)
        outcome.failed(t((m) => m.gaps.reviewNotChanged(failureText(failure, m))));
    }
  }

  function body() {
    if (refused === 'denied')
      return <Denied message={m.conversations.onlySuperAdmins} back={m.users.backToChat} />;
    if (refused) {
      return (
        <p class="notice error" role="alert">
          {m.conversations.reviewLoadFailed(failureText(refused, m))}
        </p>
      );
    }
    if (!shown) return <p class="loading">{m.conversations.reviewLoading}</p>;
    return (
      <>
        <p class="count">{m.conversations.reviewCount(shown.total)}</p>
        {shown.items.length === 0 ? (
          <p class="empty">{m.conversations.reviewNone}</p>
        ) : (
          <ol class="review-list">
            {shown.items.map((reviewed) => (
              <ReviewItem
                key={reviewed.id}
                reviewed={reviewed}
                onResolve={(resolved) => void resolve(reviewed, resolved)}
              />
            ))}
          </ol>
        )}
        <Pager
          label={m.conversations.reviewPages}
          page={shown.page}
          pages={shown.pages}
          onPage={(page) => {
            setRefused(undefined);
            list.go(page);
          }}
        />
      </>
    );
  }

  return (
    <Page
      class="review-page"
      heading={refused === 'denied' ? m.users.accessDenied : m.conversations.reviewTitle}
    >
      <p class="page-intro">{m.conversations.reviewIntro}</p>
      <OutcomeLines outcome={outcome} />
      {refused !== 'denied' && (
        <label class="switch">
          <input
            type="checkbox"
            checked={withResolved}
            onChange={(event) => {
              const checked = (event.currentTarget as HTMLInputElement).checked;
              showResolved.current = checked;
              setWithResolved(checked);
              list.go(1);
            }}
          />
          {m.gaps.reviewShowResolved}
        </label>
      )}
      <div class="review-body">{body()}</div>
    </Page>
  );
}
