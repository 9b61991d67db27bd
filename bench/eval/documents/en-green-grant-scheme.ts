// A business grant scheme (fictional agency): the English counterpart of the 财政补贴
// documents, with amounts, dates, a reference format and a scoring table.
import type { EvalDocument } from '../types.ts';

export const EN_GREEN_GRANT: EvalDocument = {
  fileName: 'en-green-grant-scheme.pdf',
  title: 'Northmere Regional Development Agency: Green Transition Grant Scheme 2024',
  language: 'en',
  pages: [
    [
      'Northmere Regional Development Agency\nGreen Transition Grant Scheme 2024',
      '1. Overview. The Green Transition Grant helps small businesses in Northmere cut their energy use and carbon emissions. The scheme has a budget of 4.8 million euros for 2024, funded jointly by the agency and the regional government.',
      '2. Grants range from 5,000 euros to 50,000 euros and cover up to 40% of eligible project costs. Micro businesses in rural areas may receive up to 60%.',
      '3. Eligible projects include heat pumps, solar panels, insulation, LED lighting, efficient refrigeration and energy audits.',
    ].join('\n\n'),
    [
      '4. Eligibility. Applicants must have fewer than 50 employees and an annual turnover below 10 million euros, and must have been trading in Northmere for at least 2 years.',
      '5. Ineligible costs: vehicles, costs incurred before a grant offer is made, recoverable VAT, and routine maintenance.',
      '6. Businesses that received a grant under the 2022 Energy Saver Fund may apply only for a different project.',
    ].join('\n\n'),
    [
      '7. Application rounds. Round 1 closes on 15 March 2024 and round 2 on 30 September 2024. Applications are made online with a quote from an accredited installer.',
      '8. Assessment. Applications are scored out of 100: carbon reduction 40 points, value for money 30 points, deliverability 20 points and wider benefits 10 points. A minimum score of 55 is needed.',
      '9. Decisions are sent within 12 weeks of the round closing. Each offer carries a grant reference in the form GT-2024-0153.',
    ].join('\n\n'),
    [
      '10. Payment. Grants are paid in arrears against paid invoices, in no more than two instalments. The final claim must be made within 6 months of the offer.',
      '11. Clawback. The grant must be repaid in full if the business moves outside Northmere or sells the funded equipment within 3 years.',
      '12. Subsidy control. Grants count towards the de minimis limit of 300,000 euros over three years.',
      '13. The scheme is managed by Tomasz Wojcik in the Business Growth Team of the agency.',
    ].join('\n\n'),
  ],
};
