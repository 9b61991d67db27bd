// PLACEHOLDER (account screens helper replaces this file).
import type { AuthCall } from '../call';

const todo = (): never => {
  throw new Error('not built yet');
};
export const logoutOthers = async (_: unknown, _ctx: AuthCall) => todo();
export const logout = async (_: unknown, _ctx: AuthCall) => todo();
