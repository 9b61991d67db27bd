import { currentLocale, setLocale, type Locale } from '../i18n/locale';
import { messages } from '../i18n/messages';

/** Each language named in itself, so a reader finds theirs whatever is on screen. */
const CHOICES: readonly { locale: Locale; label: string }[] = [
  { locale: 'zh-CN', label: '中文' },
  { locale: 'en', label: 'English' },
];

/** The visible language control on every screen: two toggle buttons, the current one pressed. */
export function LanguageSwitch() {
  const current = currentLocale();
  return (
    <div class="lang-switch" role="group" aria-label={messages().app.language}>
      {CHOICES.map(({ locale, label }) => (
        <button
          key={locale}
          type="button"
          class="lang-option"
          lang={locale}
          aria-pressed={locale === current}
          onClick={() => setLocale(locale)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
