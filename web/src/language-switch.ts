import { h } from './dom';
import { t } from './i18n/bind';
import { currentLocale, onLocaleChange, setLocale, type Locale } from './i18n/locale';

/** Each language named in itself, so a reader finds theirs whatever is on screen. */
const CHOICES: readonly { locale: Locale; label: string }[] = [
  { locale: 'zh-CN', label: '中文' },
  { locale: 'en', label: 'English' },
];

/** The visible language control: two toggle buttons, the current one pressed. */
export function createLanguageSwitch(signal?: AbortSignal): HTMLElement {
  const buttons = CHOICES.map(({ locale, label }) =>
    h(
      'button',
      {
        type: 'button',
        class: 'lang-option',
        lang: locale,
        'data-locale': locale,
        on: { click: () => setLocale(locale) },
      },
      label,
    ),
  );
  const show = () => {
    for (const button of buttons)
      button.setAttribute('aria-pressed', String(button.dataset.locale === currentLocale()));
  };
  show();
  onLocaleChange(show, signal);
  return h(
    'div',
    { class: 'lang-switch', role: 'group', 'aria-label': t((m) => m.app.language) },
    buttons,
  );
}
