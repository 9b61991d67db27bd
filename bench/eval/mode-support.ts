// Whether the server honours `mode`. A server without hybrid search ignores unknown query
// parameters and answers vector search whatever `mode` says; its numbers for hybrid and keyword
// would be vector numbers under another name, so those modes are reported as not supported.
import type { Mode, ServedResult } from './knowledge-api.ts';

export interface ModeSupport {
  honoured: boolean;
  /** Why, in a sentence for the report. */
  reason: string;
}

/** The same probe question asked in vector mode and in `mode`. */
export interface ModeProbe {
  vector: readonly ServedResult[];
  asked: readonly ServedResult[];
}

const sameRanking = (a: readonly ServedResult[], b: readonly ServedResult[]) =>
  a.length === b.length && a.every((r, i) => r.id === b[i]!.id);

/**
 * Judged from the probes: results that say which lists found them (`found_by`) must fit the
 * mode; without that field, a mode whose rankings are all identical to vector mode's is taken
 * as ignored.
 */
export function judgeModeSupport(mode: Mode, probes: readonly ModeProbe[]): ModeSupport {
  const labelled = probes.flatMap((p) => p.asked).filter((r) => Array.isArray(r.found_by));
  if (labelled.length > 0) {
    const fits = (r: ServedResult) => {
      const lists = r.found_by!;
      if (mode === 'vector') return lists.includes('vector') && !lists.includes('keyword');
      if (mode === 'keyword') return lists.includes('keyword') && !lists.includes('vector');
      return lists.length > 0;
    };
    const misfit = labelled.find((r) => !fits(r));
    return misfit
      ? {
          honoured: false,
          reason: `mode=${mode} answered a result found by ${JSON.stringify(misfit.found_by)}: the server does not honour mode=${mode}`,
        }
      : { honoured: true, reason: `results carry found_by consistent with mode=${mode}` };
  }
  if (mode === 'vector') {
    return { honoured: true, reason: 'vector search is what a server without mode answers' };
  }
  if (probes.length > 0 && probes.every((p) => sameRanking(p.vector, p.asked))) {
    return {
      honoured: false,
      reason:
        'not supported by this server: results identical to mode=vector on every probe and no found_by field (mode is ignored)',
    };
  }
  return { honoured: true, reason: `results differ from mode=vector (no found_by field)` };
}
