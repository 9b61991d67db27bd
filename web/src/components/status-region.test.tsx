import { render, screen } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { t } from '../i18n/bind';
import { setLocale } from '../i18n/locale';
import { StatusRegion } from './status-region';

describe('a status region', () => {
  beforeEach(() => setLocale('en'));

  it('says each announcement with a text node of its own, the same words too', () => {
    const { rerender } = render(<StatusRegion text={t(() => '2 files added.')} />);
    const region = screen.getByRole('status');
    const first = region.firstChild;
    expect(region.textContent).toBe('2 files added.');
    rerender(<StatusRegion text={t(() => '2 files added.')} />);
    expect(region.textContent).toBe('2 files added.');
    expect(region.firstChild).not.toBe(first);
  });
});
