import type { User } from '../api/services';
import { LanguageSwitch } from '../components/language-switch';
import { messages } from '../i18n/messages';
import { ModelNotice } from './model-status';
import type { Route } from './route';

export interface TopbarProps {
  me: User;
  route: Route;
  logout(): void;
}

/** The brand, the pages this user may open, the language, who is logged in, and Log out. */
export function Topbar({ me, route, logout }: TopbarProps) {
  const m = messages();
  const admin = me.role === 'SUPER_ADMIN';
  const current = (page: Route['page']) => (route.page === page ? 'page' : undefined);
  return (
    <header class="topbar">
      <a class="brand" href="#/">
        <span class="brand-mark" aria-hidden="true">
          KB
        </span>
        <span class="brand-text">{m.app.brand}</span>
      </a>
      <nav class="nav" aria-label={m.app.mainNavigation}>
        <a href="#/" aria-current={current('chat')}>
          {m.app.chat}
        </a>
        {admin && (
          <a href="#/users" aria-current={current('users')}>
            {m.app.users}
          </a>
        )}
        {admin && (
          <a href="#/unhelpful" aria-current={current('unhelpful')}>
            {m.app.unhelpfulAnswers}
          </a>
        )}
      </nav>
      <ModelNotice />
      <div class="who">
        <LanguageSwitch />
        <span class="who-name" title={m.app.loggedInAsTitle(me.username)}>
          <span class="visually-hidden">{m.app.loggedInAs}</span>
          {me.username}
        </span>
        <span class={admin ? 'badge admin' : 'badge'}>{admin ? m.app.superAdmin : m.app.user}</span>
        <button type="button" class="button small" onClick={logout}>
          {m.app.logOut}
        </button>
      </div>
    </header>
  );
}
