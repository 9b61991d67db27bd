// An agency travel-expense policy (fictional agency and people): amounts in euros, a policy
// code, product names (TravelPoint, ExpenseNet) as rare terms.
import type { EvalDocument } from '../types.ts';

export const EN_TRAVEL_EXPENSES: EvalDocument = {
  fileName: 'en-travel-expenses-policy.pdf',
  title: 'Northmere Regional Development Agency: Travel and Expenses Policy',
  language: 'en',
  pages: [
    [
      'Northmere Regional Development Agency\nTravel and Expenses Policy - Policy FIN-TE-07, version 3.2',
      'Section 1 - Scope and approval',
      '1.1 This policy applies to all employees, secondees and board members of the Northmere Regional Development Agency (NRDA) who travel on agency business. It takes effect on 1 January 2024 and replaces version 2.9.',
      '1.2 Every trip must be approved in advance by the line manager of the traveller. Travel outside the country also needs the written approval of the Director of Finance, Priya Raman.',
      '1.3 All journeys and hotels are booked through the travel desk of the agency, TravelPoint, at least 10 working days before departure. Bookings made privately are reimbursed only when TravelPoint could not offer an equivalent fare.',
      '1.4 Travellers should choose the lowest cost that is practical, and consider a video call before deciding to travel.',
    ].join('\n\n'),
    [
      'Section 2 - Transport',
      '2.1 Rail travel is in standard class. First class may be used only when the journey exceeds 4 hours and the traveller works on the train.',
      '2.2 Flights are booked in economy class. Business class is permitted for flights longer than 6 hours with the prior approval of the Director of Finance.',
      '2.3 Use of a private car is reimbursed at 0.30 euros per kilometre, up to a maximum of 400 kilometres per trip; each passenger on agency business adds 0.05 euros per kilometre. Parking and tolls are refunded on receipts.',
      '2.4 Taxis are refunded only when no public transport is available, when carrying heavy equipment, or for journeys between 22:00 and 6:00.',
    ].join('\n\n'),
    [
      'Section 3 - Meals and accommodation',
      '3.1 For a day trip lasting more than 8 hours, a meal allowance of 19 euros is paid. For a day trip of more than 12 hours the allowance is 28 euros.',
      '3.2 For trips with an overnight stay, a daily subsistence allowance of 45 euros covers all meals. When a meal is provided free by a host or on a course, the allowance is reduced by 9 euros for lunch and 15 euros for dinner.',
      '3.3 Hotel costs are reimbursed up to 130 euros per night in the capital and 95 euros per night elsewhere, including breakfast.',
      '3.4 Alcohol, minibar items, in-room films and personal laundry for trips shorter than 5 nights are never reimbursed.',
    ].join('\n\n'),
    [
      'Section 4 - Claims',
      '4.1 Claims are made in ExpenseNet within 30 days of returning. Claims submitted more than 90 days after the trip are rejected.',
      '4.2 Original receipts, or clear photographs of them, are required for every item above 25 euros.',
      '4.3 Advances of up to 80% of the estimated costs can be requested for trips of more than 5 days.',
      '4.4 Claims are checked by the Finance Office. A false or inflated claim is a disciplinary matter and may be reported to the police.',
      '4.5 Questions about this policy go to the expenses team at expenses@nrda.example.',
    ].join('\n\n'),
  ],
};
