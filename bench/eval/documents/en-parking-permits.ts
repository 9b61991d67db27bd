// A second regulation of the same council (fictional): permits, charges, penalties and appeals,
// the vocabulary of the street trading regulation with other facts.
import type { EvalDocument } from '../types.ts';

export const EN_PARKING_PERMITS: EvalDocument = {
  fileName: 'en-parking-permits.pdf',
  title: 'Harbourton City Council Regulation 2023/9: Residents Parking Permits',
  language: 'en',
  pages: [
    [
      'Harbourton City Council\nRegulation 2023/9: Residents Parking Permits',
      '1. This regulation, Regulation 2023/9, sets out the parking scheme for residents in controlled parking zones A to F. It has applied since 1 September 2023.',
      '2. A resident whose main home is in a controlled zone may apply for a permit for a vehicle registered at that address. A household may hold no more than 2 permits.',
      '3. Businesses in the zones may apply for one business permit per premises, for a vehicle essential to the business.',
    ].join('\n\n'),
    [
      '4. Charges. The first permit costs 60 euros a year and a second permit 120 euros a year. Permits for fully electric vehicles are charged at half price. A business permit costs 300 euros a year.',
      '5. Visitors. Each household may buy up to 60 visitor scratch cards a year at 2 euros each; one card is valid for one calendar day.',
      '6. Permits are displayed on the dashboard or held as a virtual permit linked to the number plate in the HarbourPark app.',
    ].join('\n\n'),
    [
      '7. Enforcement. Parking in a permit bay without a valid permit incurs a penalty charge of 70 euros, reduced to 35 euros if paid within 14 days.',
      '8. Challenges are made first to Harbourton Parking Services; a rejected challenge may be appealed to the independent Parking Adjudicator within 28 days.',
      '9. The scheme is managed by Harbourton Parking Services, whose head of service is Marguerite Lindqvist. Zones are reviewed every 3 years.',
    ].join('\n\n'),
  ],
};
