// The evaluation corpus: every document the repository makes for `npm run eval`. All names,
// places, codes and amounts are invented; none is a third-party document.
import { makeTextPdf } from '../../dev/fixtures/pdf-builder.ts';
import { EN_GREEN_GRANT } from './documents/en-green-grant-scheme.ts';
import { EN_MARKET_HALL_NEWS } from './documents/en-market-hall-news.ts';
import { EN_PARKING_PERMITS } from './documents/en-parking-permits.ts';
import { EN_STREET_TRADING } from './documents/en-street-trading-regulation.ts';
import { EN_TRAVEL_EXPENSES } from './documents/en-travel-expenses-policy.ts';
import { ZH_EMPLOYMENT_MEASURES } from './documents/zh-employment-measures.ts';
import { ZH_EV_SUBSIDY } from './documents/zh-ev-subsidy.ts';
import { ZH_STARTUP_CONTEST } from './documents/zh-startup-contest.ts';
import { ZH_STARTUP_LOAN } from './documents/zh-startup-loan.ts';
import { ZH_SUBSIDY_REPORT } from './documents/zh-subsidy-report.ts';
import type { EvalDocument } from './types.ts';

export const EVAL_DOCUMENTS: readonly EvalDocument[] = [
  ZH_STARTUP_LOAN,
  ZH_EMPLOYMENT_MEASURES,
  ZH_SUBSIDY_REPORT,
  ZH_EV_SUBSIDY,
  ZH_STARTUP_CONTEST,
  EN_STREET_TRADING,
  EN_TRAVEL_EXPENSES,
  EN_PARKING_PERMITS,
  EN_GREEN_GRANT,
  EN_MARKET_HALL_NEWS,
];

/** The PDF of a document: one page of text per page, its title in the document information. */
export function documentPdf(document: EvalDocument): Uint8Array {
  return makeTextPdf(document.pages, { title: document.title });
}
