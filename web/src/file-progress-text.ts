import type { FileProgress, KnowledgeFile } from './api/services';
import { phaseOf, type ProgressLike } from './file-status';
import { t, type Localized } from './i18n/bind';
import { failureText } from './i18n/failure';
import type { Messages } from './i18n/messages';

/**
 * Why a file failed (or why a step waits to be retried), in the reader's language: by the
 * error's code, as for any failed call; an unknown code shows the service's own message.
 */
export function fileErrorText(error: FileProgress['error'], m: Messages): string {
  if (!error) return m.errors.ingest_failed;
  return failureText({ status: 0, code: error.code, detail: error.message, fields: [] }, m);
}

/** What a file's bar shows: how far (undefined: not known) and the same in words. */
export interface ProgressShown {
  fraction: number | undefined;
  text: Localized;
}

/**
 * A file on its way, as its bar and status line say it; undefined once it is ready or failed.
 * Pages are counted as they are read for PDFs only (other formats are read in one step, their
 * "pages" being sections): without the format, the text only says that it is read.
 */
export function progressShown(
  file: ProgressLike,
  format?: KnowledgeFile['format'],
): ProgressShown | undefined {
  const phase = phaseOf(file);
  const text = (words: (m: Messages) => string): Localized =>
    // While a step waits to be retried, its last error says why nothing moves.
    file.error
      ? t((m) => `${words(m)} ${m.files.willRetry(fileErrorText(file.error, m))}`)
      : t(words);
  switch (phase.kind) {
    case 'queued':
      return { fraction: undefined, text: text((m) => m.files.queued) };
    case 'reading': {
      const { done, total, fraction } = phase;
      return {
        fraction,
        text: text((m) =>
          format === 'pdf' && total > 0
            ? m.files.readingPages(done, total)
            : m.files.readingDocument,
        ),
      };
    }
    case 'ocr': {
      const { done, total, fraction } = phase;
      return { fraction, text: text((m) => m.files.readingScans(done, total)) };
    }
    case 'indexing': {
      const { done, total, fraction } = phase;
      return { fraction, text: text((m) => m.files.indexing(done, total)) };
    }
    default:
      return undefined;
  }
}
