import { render, screen, fireEvent } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { detectLocale, setLocale, storedLanguage } from '../i18n/locale';
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
    expect(localStorage.getItem('kbchat.locale')).toBe('zh');
  });
});

describe('the language chosen', () => {
  it('follows the browser, Chinese for any Chinese variant and for neither language', () => {
    expect(detectLocale(['en-GB', 'zh-CN'])).toBe('en');
    expect(detectLocale(['zh-TW'])).toBe('zh');
    expect(detectLocale(['fr-FR'])).toBe('zh');
  });

  it('accepts a choice stored by an earlier version (zh-CN) and nothing unknown', () => {
    expect(storedLanguage('zh-CN')).toBe('zh');
    expect(storedLanguage('zh')).toBe('zh');
    expect(storedLanguage('en')).toBe('en');
    expect(storedLanguage('fr')).toBeUndefined();
    expect(storedLanguage(null)).toBeUndefined();
  });
});
