// A council news release (fictional): a distractor for the street trading regulation (market,
// traders, licence, Quayside, Regulation 2024/17) with facts of its own.
import type { EvalDocument } from '../types.ts';

export const EN_MARKET_HALL_NEWS: EvalDocument = {
  fileName: 'en-market-hall-news.pdf',
  title: 'Harbourton City Council news: New Quayside Market Hall opens to traders',
  language: 'en',
  pages: [
    [
      'Harbourton City Council - News release, 3 May 2024\nNew Quayside Market Hall opens to traders',
      'The covered market hall on Harbour Street opened on Friday with 42 indoor stalls. Stallholders in the hall rent their units from the council on 12-month leases at 85 euros a week, which includes electricity and cleaning.',
      'Trading in the hall is covered by the lease and not by Regulation 2024/17, so hall traders do not need a street trading licence. The hall is open Tuesday to Sunday, 8:00 to 18:00.',
    ].join('\n\n'),
    [
      'The project cost 6.3 million euros, of which 2.1 million euros came from the regional Heritage Fund.',
      'Councillor Ruth Bamidele, who chairs the Economy Committee, said the hall would give small producers a home all year round. Outdoor street trading on the quayside continues on Saturdays as before.',
      'Applications for hall units: markets@harbourton.example.',
    ].join('\n\n'),
  ],
};
