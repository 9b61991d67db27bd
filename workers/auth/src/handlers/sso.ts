// PLACEHOLDER (single sign-on helper replaces this file).
import type { AuthCall } from '../call';

const todo = (): never => {
  throw new Error('not built yet');
};
export const signInOptions = async (_: unknown, _ctx: AuthCall) => todo();
export const ssoStart = async (_: unknown, _ctx: AuthCall) => todo();
export const ssoCallback = async (_: unknown, _ctx: AuthCall) => todo();
export const ssoSession = async (_: unknown, _ctx: AuthCall) => todo();
