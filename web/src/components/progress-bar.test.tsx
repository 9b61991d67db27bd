import { render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { ProgressBar } from './progress-bar';

describe('a progress bar', () => {
  it('says how far in numbers and in words, and keeps its node as it moves', () => {
    const { rerender } = render(
      <ProgressBar label="Processing a.pdf" fraction={0.4} text="Indexing: 4 of 10 chunks" />,
    );
    const bar = screen.getByRole('progressbar', { name: 'Processing a.pdf' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(bar.getAttribute('aria-valuemin')).toBe('0');
    expect(bar.getAttribute('aria-valuemax')).toBe('100');
    expect(bar.getAttribute('aria-valuetext')).toBe('Indexing: 4 of 10 chunks');
    rerender(
      <ProgressBar label="Processing a.pdf" fraction={0.75} text="Indexing: 7 of 10 chunks" />,
    );
    expect(screen.getByRole('progressbar')).toBe(bar);
    expect(bar.getAttribute('aria-valuenow')).toBe('75');
  });

  it('shows that it is busy when how far is not known', () => {
    render(
      <ProgressBar label="Processing a.pdf" fraction={undefined} text="Waiting to be processed…" />,
    );
    const bar = screen.getByRole('progressbar');
    expect(bar.hasAttribute('aria-valuenow')).toBe(false);
    expect(bar.classList.contains('indeterminate')).toBe(true);
    expect(bar.getAttribute('aria-valuetext')).toBe('Waiting to be processed…');
  });
});
