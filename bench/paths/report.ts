// The request-path section's printed report: one table of routes next to their floors, then
// where the time goes, layer by layer.
import type { RequestPaths } from '../request-paths.ts';
import type { Stats } from '../stats.ts';
import { describeCounts, type RoundTrips } from './round-trips.ts';

const ms = (x: number) => x.toFixed(1);
const spread = (s: Stats) => `${ms(s.min_ms)} / ${ms(s.median_ms)} / ${ms(s.p95_ms)}`;

function table(header: string[], lines: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join(
    '\n',
  );
}

/** "1 (2 statements)"; with the WebSocket part when a call used one. */
function roundTrips(counted: RoundTrips): string {
  const total = describeCounts(counted.round_trips);
  const count = describeCounts(counted.sql_statements);
  const statements = `${count} statement${count === '1' ? '' : 's'}`;
  const ws = describeCounts(counted.ws_round_trips);
  const connections = describeCounts(counted.ws_connections);
  if (ws === '0' && connections === '0') return `${total} (${statements})`;
  return `${total} (${describeCounts(counted.sql_requests)} /sql with ${statements}, ${ws} ws in ${connections} conn)`;
}

export function printRequestPaths(r: RequestPaths): void {
  console.log(
    `\nRequest paths (isolated stack, ${r.stack.model}, LOG_LEVEL ${r.stack.log_level}; ` +
      `${r.seed.chunks_stored} chunks stored in ${r.seed.files}+ files; nearest-chunks plan: ${r.nearest_plan})`,
  );
  const http = r.probes.gateway_alone.median_ms;
  console.log(
    'Times in ms, min / p50 / p95; the floor measured interleaved with the route. "without ' +
      `local HTTP": over floor p50 minus the gateway answering alone (p50 ${ms(http)}), the ` +
      "part of wrangler dev's local HTTP path (two workerd processes) that production has not.\n",
  );
  const routeLines = r.routes.map((route) => [
    route.route,
    String(route.latency.n),
    spread(route.latency),
    spread(route.floor.latency),
    ms(route.overhead_p50_ms),
    ms(route.overhead_p50_ms - http),
    route.target,
    route.target.startsWith('measured') ? '' : route.met ? 'yes' : 'NO',
    roundTrips(route.round_trips),
  ]);
  const c = r.chat;
  routeLines.push([
    'POST /modulechat/chat, first answer byte',
    String(c.n),
    spread(c.first_answer_byte),
    spread(c.model_first_token),
    `${ms(c.overhead.median_ms)} (p95 ${ms(c.overhead.p95_ms)})`,
    ms(c.overhead.median_ms - http),
    `${c.targets.overhead_p50}, ${c.targets.overhead_p95}`,
    c.targets.met ? 'yes' : 'NO',
    roundTrips(c.round_trips),
  ]);
  routeLines.push([
    'POST /modulechat/chat, first stream byte',
    String(c.n),
    spread(c.first_stream_byte),
    spread(c.retrieval_http),
    ms(c.first_stream_byte.median_ms - c.retrieval_http.median_ms),
    '',
    'before retrieval',
    c.first_stream_byte.median_ms < c.retrieval_http.median_ms ? 'yes' : 'NO',
    '',
  ]);
  const ingest = r.me_during_ingest;
  for (const attempt of ingest.attempts) {
    const refused = 'error' in attempt.upload ? ' (upload REFUSED)' : '';
    routeLines.push([
      `GET /moduleauth/me during a ${attempt.pages}-page ingest${refused}`,
      String(attempt.me_during_upload.n),
      spread(attempt.me_during_upload),
      spread(ingest.me_idle_before),
      ms(attempt.me_during_upload.median_ms - ingest.me_idle_before.median_ms),
      '',
      'p95 < 50 ms',
      attempt.me_during_upload.p95_ms < 50 ? 'yes' : 'NO',
      '1 each',
    ]);
  }
  console.log(
    table(
      [
        'route',
        'n',
        'route ms',
        'floor ms',
        'over floor p50',
        'without local HTTP',
        'target',
        'met',
        'DB round trips',
      ],
      routeLines,
    ),
  );
  const hv = r.hybrid_over_vector;
  console.log(
    `\nHybrid against vector, interleaved (${hv.routes.hybrid.n} each): routes p50 ` +
      `${ms(hv.routes.hybrid.median_ms)} / ${ms(hv.routes.vector.median_ms)} ms = ` +
      `${hv.routes.ratio_p50.toFixed(2)}× (target ${hv.target}: ${hv.met ? 'met' : 'NOT met'}); ` +
      `their statements on pg ${ms(hv.statements.hybrid.median_ms)} / ` +
      `${ms(hv.statements.vector.median_ms)} ms = ${hv.statements.ratio_p50.toFixed(2)}×`,
  );
  console.log('\nFloors:');
  for (const route of r.routes) console.log(`  ${route.route}: ${route.floor.what}`);
  console.log(
    '  chat first answer byte: the model’s first token for the same request, sent directly ' +
      '(over floor = paired difference per chat)',
  );
  console.log('  chat first stream byte: compared with retrieval alone (GET query, same text)');
  console.log('  /me during the ingest: compared with /me just before the upload');

  console.log('\nWhere the time goes (p50 ms):');
  const p = r.probes;
  console.log(
    `  layers       HTTP to the gateway alone (${p.gateway_alone.route}) ` +
      `${ms(p.gateway_alone.median_ms)}; through it to a worker doing no I/O ` +
      `(${p.worker_hop_no_io.route}) ${ms(p.worker_hop_no_io.median_ms)}, ` +
      `${describeCounts(p.worker_hop_no_io.round_trips.round_trips)} round trips; select 1: open pg connection ` +
      `${ms(p.pg_select_1_open_connection.median_ms)}, fresh pg connection ` +
      `${ms(p.pg_select_1_fresh_connection.median_ms)}, HTTP /sql (Neon driver) ` +
      `${ms(p.http_sql_select_1.median_ms)}`,
  );
  for (const route of r.routes) {
    const parts = Object.entries(route.floor.parts ?? {})
      .map(([name, s]) => `${name} ${ms(s.median_ms)}`)
      .join(' + ');
    const floor = parts
      ? `${parts} = floor ${ms(route.floor.latency.median_ms)}`
      : `floor ${ms(route.floor.latency.median_ms)}`;
    const sql = route.worker_sql
      ? `; the worker's statements over HTTP /sql ${ms(route.worker_sql.latency.median_ms)}`
      : '';
    console.log(`  ${route.route}: ${floor}${sql}; route ${ms(route.latency.median_ms)}`);
  }
  console.log(
    `  chat         first stream byte ${ms(c.first_stream_byte.median_ms)} → prompt echo ` +
      `(retrieval done) ${ms(c.prompt_echo.median_ms)} → first answer byte ` +
      `${ms(c.first_answer_byte.median_ms)} → end ${ms(c.stream_end.median_ms)}; model first ` +
      `token alone ${ms(c.model_first_token.median_ms)}, so the model call costs the worker ` +
      `${ms(c.model_call_overhead.median_ms)} beyond it; retrieval alone over HTTP ` +
      `${ms(c.retrieval_http.median_ms)}`,
  );
  for (const attempt of ingest.attempts) {
    const traffic = attempt.upload_traffic;
    const outcome =
      'error' in attempt.upload
        ? `REFUSED: ${attempt.upload.error.slice(0, 160)}…`
        : `${attempt.upload.pages} pages, ${attempt.upload.chunks} chunks`;
    console.log(
      `  ingest       ${attempt.pages}-page PDF (${(attempt.pdf_bytes / 1024).toFixed(0)} KiB): ` +
        `${attempt.upload_s.toFixed(2)} s, ${outcome}; meanwhile /me p50 ` +
        `${ms(attempt.me_during_upload.median_ms)}, max ${ms(attempt.me_during_upload.max_ms)}, ` +
        `its statement on pg p50 ${ms(attempt.statement_during_upload.median_ms)}, p95 ` +
        `${ms(attempt.statement_during_upload.p95_ms)}, max ` +
        `${ms(attempt.statement_during_upload.max_ms)}; the upload's own database traffic: ` +
        `${traffic.sqlRequests} /sql requests, ${traffic.wsConnections} ws connection(s) with ` +
        `${traffic.wsRoundTrips} round trips`,
    );
  }
  console.log(
    `  seeding      ${r.seed.chunks} chunks: embedded ${r.seed.embed_s} s, inserted ` +
      `${r.seed.insert_s} s, HNSW built ${r.seed.index_build_s} s (stack start-up ${r.stack.startup_s} s)`,
  );
}
