import { render, screen, fireEvent } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLocale } from '../i18n/locale';
import { messages } from '../i18n/messages';
import { LanguageSwitch } from './language-switch';

/** Something else on screen that is translated, to see it follow the switch. */
function Heading() {
  return <h1>{messages().login.title}</h1>;
}

describe('the language switch', () => {
  beforeEach(() => setLocale('en'));

  it('names each language in itself, in a group named in the current language', () => {
    render(<LanguageSwitch />);
    expect(screen.getByRole('group', { name: 'Language' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '中文' }).getAttribute('lang')).toBe('zh-CN');
    expect(screen.getByRole('button', { name: 'English' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(screen.getByRole('button', { name: '中文' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('switches everything on screen, the page language, and remembers the choice', async () => {
    render(
      <>
        <Heading />
        <LanguageSwitch />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: '中文' }));
    expect(await screen.findByRole('heading', { name: '知识库问答' })).toBeTruthy();
    expect(screen.getByRole('group', { name: '语言' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '中文' }).getAttribute('aria-pressed')).toBe('true');
    expect(document.documentElement.lang).toBe('zh-CN');
    expect(localStorage.getItem('kbchat.locale')).toBe('zh-CN');
  });
});
