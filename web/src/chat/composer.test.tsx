import { signal } from '@preact/signals';
import { fireEvent, screen } from '@testing-library/preact';
import { createRef } from 'preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../i18n/locale';
import type { KnowledgeStore } from '../knowledge-store';
import { renderInSession } from '../testing/session';
import { Composer, type ComposerProps } from './composer';
import { createDraft } from './draft';

const emptyStore = {
  files: [],
  collection: undefined,
  selectedFiles: () => [],
  searchableFiles: () => [],
  subscribe: () => () => {},
} as unknown as KnowledgeStore;

function showComposer(streaming?: AbortController) {
  const session: ComposerProps['session'] = {
    draft: createDraft('test.draft'),
    streaming: signal(streaming),
    announcement: signal(undefined),
    ask: vi.fn(async () => {}),
    stop: vi.fn(),
  };
  renderInSession(<Composer session={session} store={emptyStore} prompt={createRef()} />);
  return { session, box: screen.getByLabelText('Your question') as HTMLTextAreaElement };
}

describe('the question box', () => {
  beforeEach(() => setLocale('en'));

  it('sends on Enter, and not on Shift+Enter or while an input method composes', () => {
    const { session, box } = showComposer();
    fireEvent.input(box, { target: { value: 'Where is the plan?' } });
    expect(session.draft.text.value).toBe('Where is the plan?');
    expect(sessionStorage.getItem('test.draft')).toBe('Where is the plan?');

    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    fireEvent.keyDown(box, { key: 'Enter', isComposing: true });
    expect(session.ask).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(session.ask).toHaveBeenCalledTimes(1);
  });

  it('offers Stop while an answer streams, and Escape stops it too', () => {
    const { session, box } = showComposer(new AbortController());
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(session.stop).toHaveBeenCalledTimes(2);
  });

  it('says the knowledge base is empty when it is', () => {
    showComposer();
    expect(screen.getByText(/knowledge base is empty/i)).toBeTruthy();
  });
});
