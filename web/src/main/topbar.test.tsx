import { fireEvent, render, screen, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../i18n/locale';
import { ME } from '../testing/session';
import { Topbar } from './topbar';

const menuButton = (name: RegExp) => screen.getByRole('button', { name, expanded: false });

describe('the top bar', () => {
  beforeEach(() => setLocale('en'));

  it('opens the user menu: my pages, the API reference in the app’s language, and Log out', () => {
    const logout = vi.fn();
    render(<Topbar me={{ ...ME, role: 'USER' }} route={{ page: 'keys' }} logout={logout} />);
    const button = menuButton(/^ada, account menu$/);
    const list = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(list.hidden).toBe(true);
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(list.hidden).toBe(false);
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['My account', '#/account'],
      ['My API keys', '#/keys'],
      ['My usage', '#/usage'],
      ['API reference (opens in a new tab)', '/docs?lang=en'],
    ]);
    expect(
      within(list).getByRole('link', { name: 'My API keys' }).getAttribute('aria-current'),
    ).toBe('page');
    fireEvent.click(within(list).getByRole('button', { name: 'Log out' }));
    expect(logout).toHaveBeenCalledOnce();
    expect(list.hidden).toBe(true);
  });

  it('closes on Escape, giving the focus back to its button, and on a click elsewhere', () => {
    render(<Topbar me={ME} route={{ page: 'chat' }} logout={() => undefined} />);
    const button = menuButton(/account menu$/);
    fireEvent.click(button);
    const link = screen.getByRole('link', { name: 'My account' });
    link.focus();
    fireEvent.keyDown(link, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);

    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    fireEvent.pointerDown(screen.getByRole('link', { name: 'Chat' }));
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('gives super admins an Admin menu with the pages of the whole service; users none', () => {
    const { unmount } = render(
      <Topbar me={ME} route={{ page: 'audit' }} logout={() => undefined} />,
    );
    const nav = screen.getByRole('navigation', { name: 'Main' });
    fireEvent.click(within(nav).getByRole('button', { name: 'Admin' }));
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['#/', '#/users', '#/unhelpful', '#/admin/usage', '#/admin/audit', '#/admin/limits']);
    expect(
      within(nav).getByRole('link', { name: 'Audit trail' }).getAttribute('aria-current'),
    ).toBe('page');
    unmount();
    render(
      <Topbar me={{ ...ME, role: 'USER' }} route={{ page: 'chat' }} logout={() => undefined} />,
    );
    expect(screen.queryByRole('button', { name: 'Admin' })).toBeNull();
  });

  it('speaks Chinese, and links the Chinese API reference', () => {
    setLocale('zh');
    render(<Topbar me={ME} route={{ page: 'chat' }} logout={() => undefined} />);
    fireEvent.click(menuButton(/^ada，账户菜单$/));
    expect(screen.getByRole('link', { name: /^API 参考/ }).getAttribute('href')).toBe(
      '/docs?lang=zh',
    );
    expect(screen.getByRole('button', { name: '退出登录' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '管理' })).toBeTruthy();
  });

  it('says the role in the user menu, not in the bar', () => {
    render(<Topbar me={ME} route={{ page: 'chat' }} logout={() => undefined} />);
    const button = menuButton(/account menu$/);
    const list = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(list.querySelector('.badge')?.textContent).toBe('Super admin');
    expect(document.querySelectorAll('.topbar .badge')).toHaveLength(1);
  });

  it('on a phone keeps to one row: a super admin’s Users and Unhelpful answers join Admin', () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: query === '(max-width: 860px)',
          addEventListener() {},
          removeEventListener() {},
        }) as unknown as MediaQueryList,
    );
    try {
      render(<Topbar me={ME} route={{ page: 'users' }} logout={() => undefined} />);
      const nav = screen.getByRole('navigation', { name: 'Main' });
      expect(
        within(nav)
          .getAllByRole('link')
          .map((link) => link.getAttribute('href')),
      ).toEqual(['#/']);
      fireEvent.click(within(nav).getByRole('button', { name: 'Admin' }));
      expect(
        within(nav)
          .getAllByRole('link')
          .map((link) => link.getAttribute('href')),
      ).toEqual([
        '#/',
        '#/users',
        '#/unhelpful',
        '#/admin/usage',
        '#/admin/audit',
        '#/admin/limits',
      ]);
      expect(within(nav).getByRole('link', { name: 'Users' }).getAttribute('aria-current')).toBe(
        'page',
      );
    } finally {
      vi.restoreAllMocks();
    }
  });
});
