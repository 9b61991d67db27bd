import { act, render, screen } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLocale } from '../i18n/locale';
import { Markdown } from './markdown';

describe('Markdown', () => {
  beforeEach(() => setLocale('en'));

  it('shows structure as such and markup from the text as text', () => {
    const { container } = render(
      <Markdown
        class="markdown"
        source={
          '**bold** <img src=x onerror="alert(1)"> [js](javascript:alert(1)) [web](https://example.org)'
        }
      />,
    );
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([
      'https://example.org/',
    ]);
  });

  it('keeps the blocks that did not change as the text grows', () => {
    const { container, rerender } = render(<Markdown class="markdown" source={'First.\n\nSec'} />);
    const first = container.querySelector('p');
    rerender(<Markdown class="markdown" source={'First.\n\nSecond, whole.'} />);
    expect(container.querySelector('p')).toBe(first);
    expect(container.textContent).toBe('First.\nSecond, whole.\n');
  });

  it('lets a wide table scroll in a region named in the current language', () => {
    render(<Markdown class="markdown" source={'| a | b |\n| - | - |\n| 1 | 2 |'} />);
    expect(screen.getByRole('region', { name: 'Table (scrolls sideways)' })).toBeTruthy();
    // An answer's table is a table: the model may answer with one.
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['a', 'b']);
    expect(screen.getAllByRole('cell').map((td) => td.textContent)).toEqual(['1', '2']);
    act(() => setLocale('zh'));
    expect(screen.getByRole('region', { name: '表格（可横向滚动）' })).toBeTruthy();
  });
});
