/**
 * Until the main view is a component itself: its element, which Preact renders empty and the
 * imperative main view fills; shown, hidden and torn down with the session.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Api, Failure, User } from './api/services';
import { createMainView, type MainView } from './main-view';

export interface MainHostProps {
  api: Api;
  me: User;
  shown: boolean;
  fail(err: unknown): Failure;
  logout(): void;
}

export function MainHost({ api, me, shown, fail, logout }: MainHostProps) {
  const element = useRef<HTMLDivElement>(null);
  const view = useRef<MainView | undefined>(undefined);
  const hooks = useRef({ fail, logout });
  hooks.current = { fail, logout };

  useLayoutEffect(() => {
    view.current = createMainView(element.current!, api, me, {
      fail: (err) => hooks.current.fail(err),
      logout: () => hooks.current.logout(),
    });
    return () => view.current?.destroy();
  }, []);
  useLayoutEffect(() => {
    if (shown) view.current?.show();
    else view.current?.hide();
  }, [shown]);

  return <div class="app" ref={element} />;
}
