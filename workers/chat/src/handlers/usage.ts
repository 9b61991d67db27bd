// PLACEHOLDER (usage helper replaces this file).
import type { ChatCall } from '../call';

const todo = (): never => {
  throw new Error('not built yet');
};
export const GetUsage = async (_: unknown, _ctx: ChatCall) => todo();
export const GetUsageAll = async (_: unknown, _ctx: ChatCall) => todo();
export const GetLimits = async (_: unknown, _ctx: ChatCall) => todo();
export const PutLimits = async (_: unknown, _ctx: ChatCall) => todo();
