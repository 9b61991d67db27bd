import { ProgressBar } from '../components/progress-bar';
import { StatusRegion } from '../components/status-region';
import { now } from '../i18n/bind';
import { formatBytes } from '../i18n/format';
import { messages } from '../i18n/messages';
import type { UploadQueue } from './upload-queue';

/**
 * The uploads of this page, each with a progress bar that is read on demand; outcomes worth
 * hearing go to the status region once (see upload-queue.ts).
 */
export function UploadList({ queue }: { queue: UploadQueue }) {
  const m = messages();
  const announcement = queue.announcement.value;
  // Rows whose files are listed in the panel give way to those rows: nothing left to clear.
  const anyShown = queue.rows.value.some((upload) => !upload.hidden);
  return (
    <div class="uploads-box">
      <ul class="uploads" aria-label={m.files.uploads}>
        {queue.rows.value.map((upload) => (
          <li key={upload.key} class="upload" hidden={upload.hidden} data-state={upload.shown}>
            <div class="upload-head">
              <span class="upload-name">{upload.file.name}</span>
              <span class="upload-size">{formatBytes(upload.file.size)}</span>
            </div>
            <ProgressBar
              label={now(upload.bar?.label ?? upload.status)}
              fraction={upload.bar?.fraction}
              text={now(upload.bar?.text ?? upload.status)}
              hidden={!upload.bar}
            />
            <p class="upload-status">{now(upload.status)}</p>
            <button
              type="button"
              class="link-button"
              aria-label={m.files.cancelUpload(upload.file.name)}
              hidden={!upload.cancellable}
              onClick={() => queue.cancel(upload.key)}
            >
              {m.files.cancel}
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        class="link-button"
        hidden={!queue.finished.value || !anyShown}
        onClick={() => queue.clearFinished()}
      >
        {m.files.clearFinished}
      </button>
      <StatusRegion text={announcement} />
    </div>
  );
}
