import { describe, expect, it } from 'vitest';
import { authService } from './auth';
import { chatService } from './chat';
import { knowledgeService } from './knowledge';

// Which routes take one kind of credential only (`@credential`, enforced by shared/auth's
// authorize on HTTP and RPC alike). A new route that administers identity must join the first
// list; the test names the routes so that such a change is a decision, not an accident.

const byCredential = (kind: string) =>
  [authService, knowledgeService, chatService]
    .flatMap((service) => service.routes)
    .filter((route) => route.credential === kind)
    .map((route) => route.name)
    .sort();

describe('@credential in the contracts', () => {
  it('identity administration (users, roles, passwords, sessions, keys) takes a login only', () => {
    expect(byCredential('login')).toEqual(
      [
        'CreateUser',
        'PutUserRole',
        'PutUserStatus',
        'PutUserPassword',
        'PostUserLogoutAll',
        'DeleteUser',
        'PutPassword',
        'PostLogoutAll',
        'PostLogoutOthers',
        'PostLogout',
        'PostApiKey',
        'DeleteApiKey',
        // The limits are settings of the whole service: a key does not change them.
        'PutLimits',
      ].sort(),
    );
  });

  it('the OpenAI-compatible door and the MCP server take an API key only', () => {
    expect(byCredential('key')).toEqual(
      ['CreateChatCompletion', 'ListModels', 'PostMcp', 'GetMcp', 'DeleteMcp'].sort(),
    );
  });

  it('reads stay open to either: the user lists, the key lists, the current user', () => {
    for (const name of ['ListUsers', 'GetApiKeys', 'ListAllApiKeys', 'GetMe']) {
      expect(authService.routes.find((route) => route.name === name)?.credential, name).toBe(
        undefined,
      );
    }
  });
});
