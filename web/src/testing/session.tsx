/**
 * A logged-in session for component tests: the user, and a fake of the typed API that answers
 * what the test gives it. Calls the test did not give fail loudly.
 */
import { render } from '@testing-library/preact';
import type { ComponentChildren } from 'preact';
import { AppError } from '#shared/errors/app-error';
import { failureOf, type Api, type User } from '../api/services';
import { Session, type AppContext } from '../context';

/** Fakes of the calls a test makes, by service and operation name (`auth.ListUsers`). */
type Fakes = {
  [Service in 'auth' | 'knowledge' | 'chat']?: Record<string, (...args: never[]) => unknown>;
} & Partial<Pick<Api, 'upload' | 'downloadUrl' | 'download'>>;

export const ME: User = {
  id: '11111111-1111-4111-8111-111111111111',
  username: 'ada',
  role: 'SUPER_ADMIN',
  created_at: '2026-01-02T03:04:05.000Z',
};

export interface TestSession extends AppContext {
  /** The failures the app was told about (a 401 among them sends it to the login page). */
  failures: { status: number; code: string }[];
}

export function testSession(fakes: Fakes = {}, me: Partial<User> = {}): TestSession {
  const missing = (service: string) =>
    new Proxy(
      {},
      {
        get: (_target, name) => {
          const fake = (fakes as Record<string, Record<string, unknown> | undefined>)[service]?.[
            String(name)
          ];
          if (fake) return fake;
          return () =>
            Promise.reject(new Error(`the test gave no fake for ${service}.${String(name)}`));
        },
      },
    );
  const failures: TestSession['failures'] = [];
  return {
    api: {
      auth: missing('auth'),
      knowledge: missing('knowledge'),
      chat: missing('chat'),
      upload: fakes.upload ?? (() => Promise.reject(new Error('no fake upload'))),
      downloadUrl: fakes.downloadUrl ?? ((id: string) => `/moduleknowledge/download?id=${id}`),
      download: fakes.download ?? (() => Promise.reject(new Error('no fake download'))),
    } as unknown as Api,
    me: { ...ME, ...me },
    signal: new AbortController().signal,
    failures,
    fail(err) {
      const failure = failureOf(err) ?? {
        status: 0,
        code: 'network',
        detail: String(err),
        fields: [],
      };
      failures.push({ status: failure.status, code: failure.code });
      return failure;
    },
  };
}

/** Renders `ui` inside the session. */
export function renderInSession(ui: ComponentChildren, session: AppContext = testSession()) {
  return render(<Session.Provider value={session}>{ui}</Session.Provider>);
}

/** A refusal as the typed client throws it: status, stable code, the service's words. */
export const refusal = (status: number, code: string, detail = code) =>
  AppError.foreign(status as 400, code, detail);
