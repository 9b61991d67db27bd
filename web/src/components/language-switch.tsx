import { LANGUAGE_TAG, type Language } from '#shared/i18n/language';
import { currentLocale, setLocale } from '../i18n/locale';
import { messages } from '../i18n/messages';

/** Each language named in itself, so a reader finds theirs whatever is on screen. */
const CHOICES: readonly { locale: Language; label: string }[] = [
  { locale: 'zh', label: '中文' },
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
          lang={LANGUAGE_TAG[locale]}
          aria-pressed={locale === current}
          onClick={() => setLocale(locale)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
