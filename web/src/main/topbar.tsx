import type { User } from '../api/services';
import { LanguageSwitch } from '../components/language-switch';
import { NARROW, useMedia } from '../components/use-media';
import { currentLocale } from '../i18n/locale';
import { messages } from '../i18n/messages';
import { Menu } from './menu';
import { ModelNotice } from './model-status';
import { pageLink, type AdminPage, type Route, type UserPage } from './route';

export interface TopbarProps {
  me: User;
  route: Route;
  logout(): void;
}

/**
 * The brand, the pages this user may open (a super admin's pages of the whole service in an
 * Admin menu), the language, and the user menu: who is logged in and in what role, their own
 * pages, the API reference and Log out. One row at every width (frame.css, phone.css).
 */
export function Topbar({ me, route, logout }: TopbarProps) {
  const m = messages();
  const admin = me.role === 'SUPER_ADMIN';
  // On a phone the bar keeps to one row: a super admin's Users and Unhelpful answers join the
  // Admin menu there.
  const narrow = useMedia(NARROW);
  const current = (page: Route['page']) => (route.page === page ? 'page' : undefined);
  const item = (page: UserPage | AdminPage | 'users' | 'unhelpful', label: string) => (
    <li>
      <a href={pageLink(page)} aria-current={current(page)}>
        {label}
      </a>
    </li>
  );
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
        {admin && !narrow && (
          <a href="#/users" aria-current={current('users')}>
            {m.app.users}
          </a>
        )}
        {admin && !narrow && (
          <a href="#/unhelpful" aria-current={current('unhelpful')}>
            {m.app.unhelpfulAnswers}
          </a>
        )}
        {admin && (
          <Menu class="admin-menu" button={m.account.admin}>
            {narrow && item('users', m.app.users)}
            {narrow && item('unhelpful', m.app.unhelpfulAnswers)}
            {item('admin-usage', m.account.usageOverview)}
            {item('audit', m.account.auditTrail)}
            {item('limits', m.account.limits)}
          </Menu>
        )}
      </nav>
      <ModelNotice />
      <div class="who">
        <LanguageSwitch />
        <Menu
          class="user-menu"
          button={
            <>
              <span class="who-name" title={m.app.loggedInAsTitle(me.username)}>
                {me.username}
              </span>
              <span class="visually-hidden">{m.account.userMenu}</span>
            </>
          }
        >
          {/* The role, where it is looked for: beside the name, not in the bar's room. */}
          <li class="menu-role">
            <span class={admin ? 'badge admin' : 'badge'}>
              {admin ? m.app.superAdmin : m.app.user}
            </span>
          </li>
          {item('account', m.account.myAccount)}
          {item('keys', m.account.myKeys)}
          {item('usage', m.account.myUsage)}
          <li>
            <a href={`/docs?lang=${currentLocale()}`} target="_blank" rel="noopener">
              {m.account.apiReference}
              <span class="visually-hidden">{m.account.newTab}</span>
            </a>
          </li>
          <li class="menu-separator">
            <button type="button" class="menu-item" onClick={logout}>
              {m.app.logOut}
            </button>
          </li>
        </Menu>
      </div>
    </header>
  );
}
