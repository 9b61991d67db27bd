// English questions over the English documents. Each line: id, category, question, where the
// answer is, and the answer-bearing text that must appear there (checked by labels.ts).
import { answered, unanswered } from './question-builders.ts';
import type { EvalQuestion } from './types.ts';

const STREET = 'en-street-trading-regulation.pdf';
const TRAVEL = 'en-travel-expenses-policy.pdf';
const PARKING = 'en-parking-permits.pdf';
const GRANT = 'en-green-grant-scheme.pdf';
const HALL = 'en-market-hall-news.pdf';

const at = (file: string, ...pages: number[]) => ({ file, pages });
const q = answered.bind(null, 'en');
const none = unanswered.bind(null, 'en');

// One question per line, a table to review: prettier would spread each over eight lines.
// prettier-ignore
export const EN_QUESTIONS: readonly EvalQuestion[] = [
  // exact: codes, amounts, names and dates typed as in the text
  q('en-exact-01', 'exact', 'When was Regulation 2024/17 adopted by the council?', at(STREET, 1), ['adopted by Harbourton City Council on 12 February 2024']),
  q('en-exact-02', 'exact', 'Which zones does Regulation 2023/9 cover?', at(PARKING, 1), ['Regulation 2023/9', 'controlled parking zones A to F']),
  q('en-exact-03', 'exact', 'Which board does Dr Samuel Okafor chair?', at(STREET, 4), ['The Board is chaired by Dr Samuel Okafor']),
  q('en-exact-04', 'exact', 'What does Priya Raman approve?', at(TRAVEL, 1), ['written approval of the Director of Finance, Priya Raman']),
  q('en-exact-05', 'exact', 'When is the 19 euros allowance paid?', at(TRAVEL, 3), ['meal allowance of 19 euros']),
  q('en-exact-06', 'exact', 'Which version does Policy FIN-TE-07 replace?', at(TRAVEL, 1), ['Policy FIN-TE-07', 'replaces version 2.9']),
  q('en-exact-07', 'exact', 'Are licences issued under Regulation 2019/4 still valid?', at(STREET, 4), ['Regulation 2019/4', 'remain valid until their expiry date']),
  q('en-exact-08', 'exact', 'What is a grant reference like GT-2024-0153?', at(GRANT, 3), ['grant reference in the form GT-2024-0153']),
  q('en-exact-09', 'exact', 'What is the 300,000 euros limit for green grants?', at(GRANT, 4), ['de minimis limit of 300,000 euros']),
  q('en-exact-10', 'exact', 'What is Marguerite Lindqvist responsible for?', at(PARKING, 3), ['head of service is Marguerite Lindqvist']),
  q('en-exact-11', 'exact', 'What is paid at 0.30 euros per kilometre?', at(TRAVEL, 2), ['private car is reimbursed at 0.30 euros per kilometre']),
  q('en-exact-12', 'exact', 'What costs 640 euros a year?', at(STREET, 2), ['640 euros for a standard pitch']),
  q('en-exact-13', 'exact', 'What closes on 30 September 2024?', at(GRANT, 3), ['round 2 on 30 September 2024']),
  q('en-exact-14', 'exact', 'Who is Eleanor Voss?', at(STREET, 4), ['Eleanor Voss, Mayor of Harbourton']),
  q('en-exact-15', 'exact', 'What is the budget of 4.8 million euros for?', at(GRANT, 1), ['budget of 4.8 million euros']),
  q('en-exact-16', 'exact', 'When is a 70 euros penalty charge reduced to 35 euros?', at(PARKING, 3), ['penalty charge of 70 euros, reduced to 35 euros if paid within 14 days']),
  q('en-exact-17', 'exact', 'What did Councillor Ruth Bamidele say about the hall?', at(HALL, 2), ['Councillor Ruth Bamidele']),
  q('en-exact-18', 'exact', 'Where does the limit of 130 euros per night apply?', at(TRAVEL, 3), ['130 euros per night in the capital']),

  // keyword: rare terms
  q('en-keyword-01', 'keyword', 'What is TravelPoint?', at(TRAVEL, 1), ['travel desk of the agency, TravelPoint']),
  q('en-keyword-02', 'keyword', 'How are claims made in ExpenseNet?', at(TRAVEL, 4), ['Claims are made in ExpenseNet within 30 days of returning']),
  q('en-keyword-03', 'keyword', 'What is the HarbourPark app for?', at(PARKING, 2), ['virtual permit linked to the number plate in the HarbourPark app']),
  q('en-keyword-04', 'keyword', 'How many visitor scratch cards can a household buy?', at(PARKING, 2), ['up to 60 visitor scratch cards a year']),
  q('en-keyword-05', 'keyword', 'Are petrol generators allowed?', at(STREET, 3), ['petrol generators are prohibited']),
  q('en-keyword-06', 'keyword', 'When does the clawback apply?', at(GRANT, 4), ['Clawback', 'repaid in full if the business moves outside Northmere']),
  q('en-keyword-07', 'keyword', 'What is the de minimis limit?', at(GRANT, 4), ['de minimis limit of 300,000 euros over three years']),
  q('en-keyword-08', 'keyword', 'Is the minibar reimbursed?', at(TRAVEL, 3), ['minibar items']),
  q('en-keyword-09', 'keyword', 'Which hygiene rating do food traders need?', at(STREET, 2), ['food hygiene rating of 3 or above']),
  q('en-keyword-10', 'keyword', 'How much public liability insurance must an applicant prove?', at(STREET, 2), ['public liability insurance of at least 2 million euros']),
  q('en-keyword-11', 'keyword', 'Are newspaper vendors exempt?', at(STREET, 1), ['Newspaper vendors']),
  q('en-keyword-12', 'keyword', 'What applies to recipients of the 2022 Energy Saver Fund?', at(GRANT, 2), ['2022 Energy Saver Fund may apply only for a different project']),
  q('en-keyword-13', 'keyword', 'What is the fee in the Old Town Conservation Area?', at(STREET, 2), ['960 euros for a pitch in the Old Town Conservation Area']),
  q('en-keyword-14', 'keyword', 'Can I get advances for a trip?', at(TRAVEL, 4), ['Advances of up to 80% of the estimated costs']),

  // paraphrase: the same meaning in other words
  q('en-paraphrase-01', 'paraphrase', 'How much can I get for food on a long single-day work outing?', at(TRAVEL, 3), ['day trip lasting more than 8 hours, a meal allowance of 19 euros']),
  q('en-paraphrase-02', 'paraphrase', 'What do I get back for driving my own vehicle for work?', at(TRAVEL, 2), ['private car is reimbursed at 0.30 euros per kilometre']),
  q('en-paraphrase-03', 'paraphrase', 'Can I sit in a better seat on long-haul journeys by plane?', at(TRAVEL, 2), ['Business class is permitted for flights longer than 6 hours']),
  q('en-paraphrase-04', 'paraphrase', 'Who has to sign off before I go abroad for my job?', at(TRAVEL, 1), ['Travel outside the country also needs the written approval of the Director of Finance']),
  q('en-paraphrase-05', 'paraphrase', 'How soon after getting home do I have to hand in my costs?', at(TRAVEL, 4), ['within 30 days of returning']),
  q('en-paraphrase-06', 'paraphrase', 'What does it cost per year to sell things from a cart in town?', at(STREET, 2), ['annual licence fee is 640 euros for a standard pitch']),
  q('en-paraphrase-07', 'paraphrase', 'How big can my stall space be?', at(STREET, 2), ['A pitch may not exceed 3 metres by 2 metres']),
  q('en-paraphrase-08', 'paraphrase', 'What happens if I keep getting fined at the market?', at(STREET, 3), ['may suspend the licence for up to 3 months']),
  q('en-paraphrase-09', 'paraphrase', 'I was turned down for a trading permit; how can I challenge that?', at(STREET, 4), ['may appeal to the Licensing Appeals Board within 21 days']),
  q('en-paraphrase-10', 'paraphrase', 'What do my friends pay to leave their car outside my house when they come round?', at(PARKING, 2), ['visitor scratch cards a year at 2 euros each']),
  q('en-paraphrase-11', 'paraphrase', 'How many cars in one home can get a resident pass?', at(PARKING, 1), ['A household may hold no more than 2 permits']),
  q('en-paraphrase-12', 'paraphrase', 'Is it cheaper if my car runs on batteries?', at(PARKING, 2), ['Permits for fully electric vehicles are charged at half price']),
  q('en-paraphrase-13', 'paraphrase', 'How much money can a small firm get to lower its power bills?', at(GRANT, 1), ['Grants range from 5,000 euros to 50,000 euros']),
  q('en-paraphrase-14', 'paraphrase', 'Which companies are too large to qualify?', at(GRANT, 2), ['fewer than 50 employees']),
  q('en-paraphrase-15', 'paraphrase', 'How is a request for funding judged?', at(GRANT, 3), ['scored out of 100: carbon reduction 40 points']),
  q('en-paraphrase-16', 'paraphrase', 'How long until I hear back about my energy-saving funding bid?', at(GRANT, 3), ['Decisions are sent within 12 weeks of the round closing']),

  // plain: ordinary questions that share words with their passage
  q('en-plain-01', 'plain', 'What is the annual licence fee for a standard street trading pitch?', at(STREET, 2), ['annual licence fee is 640 euros for a standard pitch']),
  q('en-plain-02', 'plain', 'How long before trading must a licence application be made?', at(STREET, 2), ['at least 28 days before the intended start of trading']),
  q('en-plain-03', 'plain', 'When is the Quayside Market held?', at(STREET, 3), ['Quayside Market is held every Saturday from 7:00 to 15:00']),
  q('en-plain-04', 'plain', 'When must traders remove their waste after the market closes?', at(STREET, 3), ['remove all waste within 30 minutes of the market closing']),
  q('en-plain-05', 'plain', 'What is the fixed penalty notice for a trader who breaches the conduct rules?', at(STREET, 3), ['fixed penalty notice of 150 euros']),
  q('en-plain-06', 'plain', 'When does the Farmers Market take place?', at(STREET, 3), ['Farmers Market on the first Sunday of each month']),
  q('en-plain-07', 'plain', 'What is the daily subsistence allowance for trips with an overnight stay?', at(TRAVEL, 3), ['daily subsistence allowance of 45 euros']),
  q('en-plain-08', 'plain', 'Which class is used for rail travel?', at(TRAVEL, 2), ['Rail travel is in standard class']),
  q('en-plain-09', 'plain', 'When are taxis refunded?', at(TRAVEL, 2), ['Taxis are refunded only when no public transport is available']),
  q('en-plain-10', 'plain', 'Which items need receipts when I claim expenses?', at(TRAVEL, 4), ['required for every item above 25 euros']),
  q('en-plain-11', 'plain', 'What is the hotel limit per night outside the capital?', at(TRAVEL, 3), ['95 euros per night elsewhere']),
  q('en-plain-12', 'plain', 'How much does the first residents parking permit cost?', at(PARKING, 2), ['The first permit costs 60 euros a year']),
  q('en-plain-13', 'plain', 'How much does a business parking permit cost?', at(PARKING, 2), ['A business permit costs 300 euros a year']),
  q('en-plain-14', 'plain', 'How do I appeal a rejected challenge to a parking penalty charge?', at(PARKING, 3), ['appealed to the independent Parking Adjudicator within 28 days']),
  q('en-plain-15', 'plain', 'What share of eligible project costs does the Green Transition Grant cover?', at(GRANT, 1), ['cover up to 40% of eligible project costs']),
  q('en-plain-16', 'plain', 'Which projects are eligible for the Green Transition Grant?', at(GRANT, 1), ['Eligible projects include heat pumps, solar panels']),
  q('en-plain-17', 'plain', 'When does round 1 of the grant applications close?', at(GRANT, 3), ['Round 1 closes on 15 March 2024']),
  q('en-plain-18', 'plain', 'What is the weekly rent for a unit in the new market hall?', at(HALL, 1), ['85 euros a week']),

  // no_answer: nothing in the corpus answers; several share its vocabulary on purpose
  none('en-none-01', 'How many days of annual leave do NRDA employees get?', ['annual leave', 'holiday']),
  none('en-none-02', 'What is the fee for a taxi driver licence in Harbourton?', ['taxi driver', 'hackney']),
  none('en-none-03', 'How much does a season ticket for the Harbourton buses cost?', ['season ticket', 'buses']),
  none('en-none-04', 'What is the interest rate on Northmere business loans?', ['interest rate', 'loan']),
  none('en-none-05', 'Can employees claim childcare costs while travelling?', ['childcare']),
  none('en-none-06', 'What is the speed limit on the quayside?', ['speed limit']),
  none('en-none-07', 'How do I report a pothole to Harbourton City Council?', ['pothole']),
  none('en-none-08', 'What are the opening hours of the Harbourton public library?', ['library']),
  none('en-none-09', 'What is the mileage rate for motorcycles?', ['motorcycle', 'mileage']),
  none('en-none-10', 'What is the fine for dropping litter in Harbourton?', ['litter']),
  none('en-none-11', 'How many jobs did the Green Transition Grant create last year?', ['jobs']),
  none('en-none-12', 'What is the penalty for parking on a double yellow line?', ['yellow line']),
  none('en-none-13', 'How do I renew my passport at the council offices?', ['renew', 'passport renewal']),
  none('en-none-14', 'What discount do pensioners get on parking permits?', ['pensioner']),
];
