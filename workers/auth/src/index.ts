import type { Principal } from '#shared/auth/roles';
import { settleSession } from '#shared/auth/session';
import { authService } from '#shared/contracts/auth';
import { checkDatabase } from '#shared/db/health';
import { createModuleApp, moduleName } from '#shared/module/module-app';
import { mountService, rpcEntrypoint, type ServiceImpl } from '#shared/service';
import { authorize } from './authorize';
import { authConfig } from './config';
import * as apiKeys from './handlers/api-keys';
import { changePassword, logoutAll, me, signup } from './handlers/account';
import { login } from './handlers/login';
import * as admin from './handlers/users-admin';
import { AUTH_MODULE } from './module';
import { publicJwks } from './tokens';

// Every auth request is a small JSON or form document; anything bigger is refused unread.
const MAX_BODY_BYTES = 16 * 1024;

const impl: ServiceImpl<typeof authService, AuthEnv, Principal> = {
  GetHealth: async (_, ctx) => ({
    module: moduleName(ctx.env, AUTH_MODULE),
    database: await checkDatabase(authConfig(ctx.env).database),
  }),
  PostLogin: login,
  GetMe: me,
  PostSignup: signup,
  PutPassword: changePassword,
  PostLogoutAll: logoutAll,
  ListUsers: admin.list,
  CreateUser: admin.create,
  PutUserRole: admin.setRole,
  PutUserStatus: admin.setStatus,
  PutUserPassword: admin.resetPassword,
  PostUserLogoutAll: admin.logoutUser,
  DeleteUser: admin.remove,
  PostApiKey: apiKeys.create,
  GetApiKeys: apiKeys.listOwn,
  DeleteApiKey: apiKeys.remove,
  ListAllApiKeys: apiKeys.listAll,
  GetJwks: async (_, ctx) => publicJwks(authConfig(ctx.env).verification.publicKeys),
};

const app = createModuleApp<{ Bindings: AuthEnv }>(AUTH_MODULE);
mountService(app, authService, impl, {
  authorize,
  settle: settleSession,
  bodyLimit: () => ({ bytes: MAX_BODY_BYTES }),
});

/** What the other workers call over their AUTH service binding (GetMe settles a session). */
export const AuthRpc = rpcEntrypoint(authService, impl, { authorize, settle: settleSession });

export default app;
