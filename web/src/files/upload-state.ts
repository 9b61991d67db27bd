import type { Failure, UploadResult } from '../api/services';
import { failureText } from '../i18n/failure';
import type { Localized } from '../i18n/bind';
import { formatBytes } from '../i18n/format';
import type { Messages } from '../i18n/messages';

export type UploadState =
  | { kind: 'queued' }
  | { kind: 'uploading'; fraction: number }
  /** The bytes are sent; the service has not answered yet. */
  | { kind: 'sent' }
  /** Stored: its processing is followed through the store (see `shownOf`). */
  | { kind: 'stored'; result: UploadResult; listMarker: number; listed: boolean }
  | { kind: 'duplicate'; result: UploadResult }
  | { kind: 'failed'; message: Localized }
  | { kind: 'cancelled' };

/** What a row shows (its `data-state`); a stored file's comes from its progress. */
export type Shown =
  | 'queued'
  | 'uploading'
  | 'sent'
  | 'processing'
  | 'added'
  | 'duplicate'
  | 'failed'
  | 'deleted'
  | 'cancelled';

/** One upload as its row shows it. */
export interface UploadView {
  key: number;
  file: File;
  /** Another collection's upload: its row waits until that collection is shown again. */
  hidden: boolean;
  shown: Shown;
  cancellable: boolean;
  bar: { label: Localized; fraction: number | undefined; text: Localized } | undefined;
  status: Localized;
}

export const isFinished = (shown: Shown) =>
  shown === 'added' ||
  shown === 'duplicate' ||
  shown === 'failed' ||
  shown === 'deleted' ||
  shown === 'cancelled';

/**
 * Why an upload failed, by the problem's code. "Too large" names the file's own size: the
 * service's limit is only in its English detail, which is not parsed.
 */
export function uploadFailureText(failure: Failure, size: number, m: Messages): string {
  if (failure.code === 'file_too_large' || failure.code === 'body_too_large')
    return `${m.errors.file_too_large} (${formatBytes(size)})`;
  if (failure.code === 'unauthenticated' || failure.code === 'network')
    return m.files.notUploaded(failureText(failure, m));
  return failureText(failure, m);
}
