import { screen } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../i18n/locale';
import { routeOf } from '../main/route';
import { refusal, renderInSession, testSession } from '../testing/session';
import { DocumentViewer } from './document-viewer';

const FILE = '0b9f4c1e-7d2a-4e5b-9c3d-2a1b0c9d8e7f';

/** The viewer opened by a link, over a service whose page and passage calls are these. */
function open(hash: string, GetPage: () => Promise<unknown>) {
  const route = routeOf(hash);
  if (route.page !== 'doc') throw new Error(`${hash} is no document link`);
  const GetChunk = vi.fn(() => Promise.reject(refusal(404, 'not_found')));
  const page = vi.fn(GetPage);
  renderInSession(
    <DocumentViewer route={route} onClose={() => undefined} />,
    testSession({ knowledge: { GetPage: page, GetChunk } }),
  );
  return { GetPage: page, GetChunk };
}

describe('the document viewer opened by a link that names no document', () => {
  beforeEach(() => setLocale('zh'));

  it('says the document does not exist, asking nothing, when the link names no file', async () => {
    const { GetPage, GetChunk } = open('#/doc/not-a-uuid?page=2', () => new Promise(() => {}));
    expect((await screen.findByRole('alert')).textContent).toBe('文档不存在，或您无权查看。');
    expect(screen.queryByText(/下载原文件/)).toBeNull();
    expect(GetPage).not.toHaveBeenCalled();
    expect(GetChunk).not.toHaveBeenCalled();
  });

  it('says the same when the service cannot take the link’s file or page (400), not “try again”', async () => {
    open(`#/doc/${FILE}?page=3`, () => Promise.reject(refusal(400, 'validation_failed')));
    expect((await screen.findByRole('alert')).textContent).toBe('文档不存在，或您无权查看。');
  });

  it('says the same for a page the document does not have (404)', async () => {
    open(`#/doc/${FILE}?page=999`, () => Promise.reject(refusal(404, 'not_found')));
    expect((await screen.findByRole('alert')).textContent).toBe('文档不存在，或您无权查看。');
  });

  it('keeps “try again” for a failure that may pass', async () => {
    setLocale('en');
    open(`#/doc/${FILE}`, () => Promise.reject(refusal(503, 'unavailable')));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The document could not be shown. Try again, or download the original.',
    );
  });
});
