import type { Context } from 'hono';
import { z } from 'zod';
import { boolean } from '../config/load-config';

/**
 * Whether CF-Connecting-IP is the client's address: on Cloudflare the edge sets it (a client's
 * own value is replaced); under `wrangler dev` any client can send it, so the local stack sets
 * TRUST_CF_CONNECTING_IP=false and every client counts as one address. One setting, read by
 * each worker's config loader, so that the login throttle and the audit trail of every module
 * name the same address.
 */
export const clientAddressConfig = z
  .object({ TRUST_CF_CONNECTING_IP: boolean(true) })
  .transform((env) => ({ trustCfConnectingIp: env.TRUST_CF_CONNECTING_IP }));

export type ClientAddressSettings = z.output<typeof clientAddressConfig>;

/**
 * The client's address: CF-Connecting-IP where Cloudflare's edge sets it; otherwise (a header
 * a client could send itself, an RPC call with no HTTP request) `unknown`.
 */
export function clientAddressOf(
  http: Pick<Context, 'req'> | undefined,
  settings: ClientAddressSettings,
): string {
  const header = settings.trustCfConnectingIp
    ? http?.req.header('CF-Connecting-IP')?.trim()
    : undefined;
  return header && header.length <= 64 ? header.toLowerCase() : 'unknown';
}
