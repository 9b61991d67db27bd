import { render, screen, act } from '@testing-library/preact';
import { signal } from '@preact/signals';
import { beforeEach, describe, expect, it } from 'vitest';
import { t } from '../i18n/bind';
import { setLocale } from '../i18n/locale';
import { Notice, StatusRegion, say, type Said } from './notice';

describe('notices', () => {
  beforeEach(() => setLocale('en'));

  it('an alert is in the page before it speaks, hidden while it has nothing to say', () => {
    const { rerender } = render(<Notice tone="warning" text={undefined} />);
    const alert = screen.getByRole('alert', { hidden: true });
    expect(alert.hidden).toBe(true);
    rerender(<Notice tone="warning" text="Your session has expired." />);
    expect(screen.getByRole('alert')).toBe(alert);
    expect(alert.className).toBe('notice warning');
    expect(alert.textContent).toBe('Your session has expired.');
  });

  it('a status region says each thing once, the same words again as new words', () => {
    const said = signal<Said | undefined>(undefined);
    render(<StatusRegion said={said} />);
    const region = screen.getByRole('status');
    expect(region.textContent).toBe('');
    act(() =>
      say(
        said,
        t((m) => m.chat.announceStopped),
      ),
    );
    const first = region.firstChild;
    expect(region.textContent).toBe('The answer was stopped.');
    act(() =>
      say(
        said,
        t((m) => m.chat.announceStopped),
      ),
    );
    expect(region.textContent).toBe('The answer was stopped.');
    // A new text node: screen readers read it again.
    expect(region.firstChild).not.toBe(first);
    act(() => setLocale('zh'));
    expect(region.textContent).toBe('回答已停止。');
  });
});
