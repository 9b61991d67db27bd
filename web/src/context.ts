import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Api, Failure, User } from './api/services';

/** What every screen of a logged-in session gets. */
export interface AppContext {
  api: Api;
  me: User;
  /** Aborts when the session's screens are torn down (logout, another user logs in). */
  signal: AbortSignal;
  /**
   * An error of a call, in words for the page. A 401 also sends the user to the login page
   * (everything on screen is kept for when they are back).
   */
  fail(err: unknown): Failure;
}

export const isAbort = (err: unknown) => err instanceof Error && err.name === 'AbortError';

/** The logged-in session, for the components below `<Session.Provider>`. */
export const Session = createContext<AppContext | undefined>(undefined);

export function useApp(): AppContext {
  const ctx = useContext(Session);
  if (!ctx) throw new Error('useApp: no logged-in session above this component');
  return ctx;
}
