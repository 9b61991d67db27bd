import { useState } from 'preact/hooks';
import type { Conversation } from '../api/services';
import { useActionLook } from '../components/menu-button';
import { saveFile } from '../components/save-file';
import { useApp, type AppContext } from '../context';
import { readerTimeZone } from '../i18n/format';
import { messages } from '../i18n/messages';
import { printRecord } from './print-record';

/**
 * The conversation's record (the service's Markdown export) as text, with the name it gives;
 * its times in the reader's time zone, which the record names.
 */
async function fetchRecord(ctx: AppContext, id: string) {
  const timeZone = readerTimeZone();
  const file = await ctx.api.chat.GetConversationExport(
    { id, format: 'markdown', ...(timeZone ? { time_zone: timeZone } : {}) },
    { signal: ctx.signal },
  );
  return { text: await new Response(file.body).text(), filename: file.filename };
}

const save = (text: string, filename: string) =>
  saveFile(new Blob([text], { type: 'text/markdown;charset=utf-8' }), filename);

/**
 * Export Markdown and Save as PDF for the open conversation. Both are the one record the
 * service writes (questions, answers, model, times, checked sentences, sources with their
 * passages): the PDF is that Markdown printed, so the two never tell different things.
 */
export function RecordActions({ conversation }: { conversation: Conversation | undefined }) {
  const ctx = useApp();
  const [busy, setBusy] = useState(false);
  const m = messages().record;
  // Small buttons in the conversation's head; items of its More menu on a phone.
  const look = useActionLook('button small');

  async function run(then: (record: { text: string; filename?: string }) => void) {
    if (!conversation || busy) return;
    setBusy(true);
    try {
      then(await fetchRecord(ctx, conversation.id));
    } catch (err) {
      ctx.fail(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button
        type="button"
        {...look}
        hidden={!conversation}
        aria-busy={busy || undefined}
        aria-label={conversation && m.exportMarkdownNamed(conversation.title)}
        onClick={() =>
          void run((record) =>
            save(record.text, record.filename ?? `${conversation?.title ?? 'conversation'}.md`),
          )
        }
      >
        {m.exportMarkdown}
      </button>
      <button
        type="button"
        {...look}
        hidden={!conversation}
        aria-busy={busy || undefined}
        aria-label={conversation && m.savePdfNamed(conversation.title)}
        onClick={() => void run((record) => printRecord(record.text))}
      >
        {m.savePdf}
      </button>
    </>
  );
}
