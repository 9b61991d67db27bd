// PLACEHOLDER (audit helper replaces this file).
import type { AuthCall } from '../call';

const todo = (): never => {
  throw new Error('not built yet');
};
export const listAudit = async (_: unknown, _ctx: AuthCall) => todo();
export const exportAudit = async (_: unknown, _ctx: AuthCall) => todo();
