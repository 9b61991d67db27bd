// A municipal regulation (fictional council, people and numbers). Regulation 2019/4, the market
// hall news release and the parking regulation share its vocabulary.
import type { EvalDocument } from '../types.ts';

export const EN_STREET_TRADING: EvalDocument = {
  fileName: 'en-street-trading-regulation.pdf',
  title: 'Harbourton City Council Regulation 2024/17: Street Trading and Markets',
  language: 'en',
  pages: [
    [
      'Harbourton City Council\nRegulation 2024/17: Street Trading and Markets',
      'Part 1 - General',
      '1. Citation and commencement. This regulation may be cited as the Street Trading and Markets Regulation 2024 (Regulation 2024/17). It was adopted by Harbourton City Council on 12 February 2024 and comes into force on 1 April 2024.',
      '2. Purpose. The regulation controls trading from stalls, carts and vehicles on public streets and in the designated market places of Harbourton, so that pavements stay passable and traders compete on fair terms.',
      '3. Definitions. In this regulation, "street trading" means selling or offering goods or services for sale in a street; a "pitch" is the area allocated to one trader; the "Licensing Officer" is the council officer appointed to administer street trading, currently Ms Helen Achterberg.',
      '4. Exemptions. Newspaper vendors, charity collections holding a collection permit, and sales at private premises with the consent of the owner are not street trading for the purposes of this regulation.',
    ].join('\n\n'),
    [
      'Part 2 - Licences',
      '5. No person may trade in a street without a street trading licence issued by the Licensing Officer.',
      '6. An application must be made at least 28 days before the intended start of trading, on the council form, with two passport-style photographs, proof of public liability insurance of at least 2 million euros and, for food traders, a food hygiene rating of 3 or above.',
      '7. Fees. The annual licence fee is 640 euros for a standard pitch and 960 euros for a pitch in the Old Town Conservation Area. Temporary licences for up to 14 days cost 75 euros. Fees are halved for traders selling only goods they have made themselves.',
      '8. A licence is personal to the holder and may not be transferred or sublet. A pitch may not exceed 3 metres by 2 metres.',
    ].join('\n\n'),
    [
      'Part 3 - Markets and trading conduct',
      '9. Market days. The Quayside Market is held every Saturday from 7:00 to 15:00 and the Farmers Market on the first Sunday of each month from 9:00 to 13:00.',
      '10. Traders must clear their pitch and remove all waste within 30 minutes of the market closing.',
      '11. Amplified music, loudspeakers and petrol generators are prohibited; battery power, or mains power supplied by the council, may be used.',
      '12. Penalties. A trader who breaches this Part may be issued a fixed penalty notice of 150 euros. After three fixed penalty notices within 12 months the Licensing Officer may suspend the licence for up to 3 months.',
    ].join('\n\n'),
    [
      'Part 4 - Appeals and revocation',
      '13. An applicant refused a licence, or a holder whose licence is suspended or revoked, may appeal to the Licensing Appeals Board within 21 days of the decision being notified in writing.',
      '14. The Board is chaired by Dr Samuel Okafor and sits on the second Tuesday of each month. Its decision is final.',
      '15. Regulation 2019/4 (Street Trading) is revoked. Licences issued under it remain valid until their expiry date.',
      'Signed on behalf of the Council: Eleanor Voss, Mayor of Harbourton.',
    ].join('\n\n'),
  ],
};
