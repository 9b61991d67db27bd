import { render, screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLocale } from '../i18n/locale';
import { testSession } from '../testing/session';
import { loadModelStatus, ModelNotice, modelInUse, OfflineNote } from './model-status';

const health = (offline: boolean) => async () => ({
  model: { ok: true, latency_ms: 3, dimensions: 1536, name: 'gpt-4o-mini', offline },
});

describe('which model answers', () => {
  beforeEach(() => {
    setLocale('en');
    modelInUse.value = undefined;
  });

  it('the offline stand-in is said in the header and under every answer', async () => {
    const { api } = testSession({ chat: { GetHealth: health(true) } });
    loadModelStatus(api, new AbortController().signal);
    render(
      <>
        <ModelNotice />
        <OfflineNote />
        <OfflineNote />
      </>,
    );
    await waitFor(() => expect(document.querySelector('.model-notice')).toBeTruthy());
    expect(document.querySelector('.model-notice summary')?.textContent).toBe(
      '⚠offline demo model: answers are extracts; connect a model',
    );
    expect(document.querySelector('.model-help')?.textContent).toContain('MODEL_BASE_URL');
    expect(document.querySelector('.model-help cite')?.textContent).toBe(
      'README.md, section “Connect a model”',
    );
    const notes = [...document.querySelectorAll('.offline-note')];
    expect(notes.map((note) => note.textContent)).toEqual([
      'offline demo model: answers are extracts; connect a model',
      'offline demo model: answers are extracts; connect a model',
    ]);
    // "connect a model" opens the header's explanation.
    screen.getAllByRole('link', { name: 'connect a model' })[0]!.click();
    expect((document.querySelector('.model-notice') as HTMLDetailsElement).open).toBe(true);

    setLocale('zh');
    await waitFor(() =>
      expect(document.querySelector('.offline-note')?.textContent).toBe(
        '离线演示模型：回答为原文摘录； 请接入模型',
      ),
    );
  });

  it('says nothing for a real model, nor when health fails', async () => {
    const real = testSession({ chat: { GetHealth: health(false) } });
    loadModelStatus(real.api, new AbortController().signal);
    render(
      <>
        <ModelNotice />
        <OfflineNote />
      </>,
    );
    await waitFor(() => expect(modelInUse.value?.offline).toBe(false));
    expect(document.querySelector('.model-notice, .offline-note')).toBeNull();

    loadModelStatus(testSession().api, new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(modelInUse.value).toBeUndefined();
  });
});
