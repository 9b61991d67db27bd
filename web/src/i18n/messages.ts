import { account } from './catalogue/account';
import { app } from './catalogue/app';
import { audit } from './catalogue/audit';
import { chat } from './catalogue/chat';
import { chunks } from './catalogue/chunks';
import { collections } from './catalogue/collections';
import { conversations } from './catalogue/conversations';
import { dialogs } from './catalogue/dialogs';
import { errors } from './catalogue/errors';
import { files } from './catalogue/files';
import { filters } from './catalogue/filters';
import { gaps } from './catalogue/gaps';
import { login } from './catalogue/login';
import { metadata } from './catalogue/metadata';
import { official } from './catalogue/official';
import { pager } from './catalogue/pager';
import { place } from './catalogue/place';
import { record } from './catalogue/record';
import { reindex } from './catalogue/reindex';
import { retrieval } from './catalogue/retrieval';
import { sourcesNow } from './catalogue/sources-now';
import { support } from './catalogue/support';
import { usage } from './catalogue/usage';
import { users } from './catalogue/users';
import { versions } from './catalogue/versions';
import { viewer } from './catalogue/viewer';
import type { Language } from '#shared/i18n/language';
import { currentLocale } from './locale';

/**
 * Every screen's strings. A new screen adds its file under ./catalogue/ (both languages side
 * by side, see ./define.ts) and one line here.
 */
const catalogue = {
  account,
  app,
  audit,
  chat,
  chunks,
  collections,
  conversations,
  dialogs,
  errors,
  files,
  filters,
  gaps,
  login,
  metadata,
  official,
  pager,
  place,
  record,
  reindex,
  retrieval,
  sourcesNow,
  support,
  usage,
  users,
  versions,
  viewer,
};

type Catalogue = typeof catalogue;
export type Messages = { [Screen in keyof Catalogue]: Catalogue[Screen][Language] };

const byLocale = new Map<Language, Messages>();

/** The strings of the current language. */
export function messages(): Messages {
  const locale = currentLocale();
  let found = byLocale.get(locale);
  if (!found) {
    found = Object.fromEntries(
      Object.entries(catalogue).map(([screen, texts]) => [screen, texts[locale]]),
    ) as Messages;
    byLocale.set(locale, found);
  }
  return found;
}
