import type { Principal } from '#shared/auth/roles';
import type { authService } from '#shared/contracts/auth';
import { checkDatabase } from '#shared/db/health';
import { moduleName } from '#shared/module/module-app';
import type { ServiceImpl } from '#shared/service';
import { authConfig } from './config';
import * as apiKeys from './handlers/api-keys';
import { changePassword, logoutAll, me, signup } from './handlers/account';
import * as audit from './handlers/audit';
import { login } from './handlers/login';
import * as sessions from './handlers/sessions';
import * as sso from './handlers/sso';
import * as admin from './handlers/users-admin';
import { publicJwks } from './identity/tokens';
import { AUTH_MODULE } from './module';

/** The auth service: each declared method's handler, the same over HTTP and RPC. */
export const authImpl: ServiceImpl<typeof authService, AuthEnv, Principal> = {
  GetHealth: async (_, ctx) => ({
    module: moduleName(ctx.env, AUTH_MODULE),
    database: await checkDatabase(authConfig(ctx.env).database),
  }),
  PostLogin: login,
  GetMe: me,
  PostSignup: signup,
  PutPassword: changePassword,
  PostLogoutAll: logoutAll,
  PostLogoutOthers: sessions.logoutOthers,
  PostLogout: sessions.logout,
  GetSignInOptions: sso.signInOptions,
  GetSsoStart: sso.ssoStart,
  GetSsoCallback: sso.ssoCallback,
  PostSsoSession: sso.ssoSession,
  GetAudit: audit.listAudit,
  GetAuditExport: audit.exportAudit,
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
