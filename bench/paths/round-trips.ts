// Database round trips of a request, counted by the local Neon proxy (GET /_stats, see
// dev/stack/proxy-stats.ts): its counters read before and after each call, the calls made one
// at a time with nothing else running, so that the difference is the call's own.
import type { ProxyStats } from '../../dev/stack/proxy-stats.ts';

export interface RoundTrips {
  calls: number;
  /** Per call: HTTP /sql requests + Postgres turns over WebSockets. */
  round_trips: number[];
  sql_requests: number[];
  sql_statements: number[];
  ws_connections: number[];
  ws_round_trips: number[];
}

export async function proxyStats(proxyAddress: string): Promise<ProxyStats> {
  const res = await fetch(`http://${proxyAddress}/_stats`, { signal: AbortSignal.timeout(5_000) });
  if (res.status !== 200) throw new Error(`the proxy's /_stats answered ${res.status}`);
  return (await res.json()) as ProxyStats;
}

export function statsDifference(after: ProxyStats, before: ProxyStats): ProxyStats {
  return {
    sqlRequests: after.sqlRequests - before.sqlRequests,
    sqlStatements: after.sqlStatements - before.sqlStatements,
    wsConnections: after.wsConnections - before.wsConnections,
    wsMessages: after.wsMessages - before.wsMessages,
    wsRoundTrips: after.wsRoundTrips - before.wsRoundTrips,
  };
}

export async function countRoundTrips(
  proxyAddress: string,
  call: () => Promise<unknown>,
  calls: number,
): Promise<RoundTrips> {
  const counted: RoundTrips = {
    calls,
    round_trips: [],
    sql_requests: [],
    sql_statements: [],
    ws_connections: [],
    ws_round_trips: [],
  };
  for (let i = 0; i < calls; i++) {
    const before = await proxyStats(proxyAddress);
    await call();
    const d = statsDifference(await proxyStats(proxyAddress), before);
    counted.round_trips.push(d.sqlRequests + d.wsRoundTrips);
    counted.sql_requests.push(d.sqlRequests);
    counted.sql_statements.push(d.sqlStatements);
    counted.ws_connections.push(d.wsConnections);
    counted.ws_round_trips.push(d.wsRoundTrips);
  }
  return counted;
}

/** "1", or "1–2" when the calls differed. */
export function describeCounts(values: number[]): string {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return min === max ? String(min) : `${min}–${max}`;
}
