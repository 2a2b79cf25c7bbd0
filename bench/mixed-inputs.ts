import { rng, usualShape } from './inputs';

// The phone column of a customer list as it comes, for the normalizer's headline figures: ~90%
// numbers written the usual ways, ~10% invalid or unusual cells. Written from what such columns
// hold, not from what the normalizer reads fast: nothing here consults normalize.ts, scan-nanp.ts,
// their tables or libphonenumber-js (the area codes are a fixed list of real US and Canadian ones,
// exchanges and lines are random, so some numbers are invalid as the metadata sees them, as in real
// lists). Deterministic: the same seed gives the same inputs.

// Real area codes: populous US ones, Canadian ones, toll-free.
const AREAS = [
  '201', '202', '203', '205', '206', '207', '208', '210', '212', '213', '214', '215', '216', '217', '219', '224', '225', '228', '239', '240',
  '248', '251', '252', '253', '256', '260', '262', '267', '269', '270', '276', '281', '301', '302', '303', '304', '305', '307', '308', '309',
  '310', '312', '313', '314', '315', '316', '317', '318', '319', '320', '321', '323', '330', '334', '336', '337', '339', '347', '351', '352',
  '360', '361', '385', '386', '401', '402', '404', '405', '406', '407', '408', '409', '410', '412', '413', '414', '415', '417', '419', '423',
  '425', '432', '434', '435', '440', '443', '469', '470', '478', '479', '480', '484', '501', '502', '503', '504', '505', '507', '508', '509',
  '510', '512', '513', '515', '516', '517', '518', '520', '530', '540', '541', '551', '559', '561', '562', '563', '567', '570', '571', '573',
  '574', '580', '585', '586', '601', '602', '603', '605', '606', '607', '608', '609', '610', '612', '614', '615', '616', '617', '618', '619',
  '620', '623', '626', '630', '631', '636', '641', '646', '650', '651', '660', '661', '662', '678', '682', '701', '702', '703', '704', '706',
  '707', '708', '712', '713', '714', '715', '716', '717', '718', '719', '720', '724', '727', '731', '732', '734', '740', '754', '757', '760',
  '763', '765', '770', '772', '773', '774', '775', '781', '785', '786', '801', '802', '803', '804', '805', '806', '808', '810', '812', '813',
  '814', '815', '816', '817', '818', '828', '830', '831', '832', '843', '845', '847', '848', '850', '856', '857', '858', '859', '860', '862',
  '863', '864', '865', '870', '878', '901', '903', '904', '906', '907', '908', '909', '910', '912', '913', '914', '915', '916', '917', '918',
  '919', '920', '925', '928', '931', '936', '937', '940', '941', '949', '951', '952', '954', '956', '970', '971', '972', '973', '978', '979',
  '980', '985', '989', '204', '226', '236', '250', '289', '306', '343', '365', '403', '416', '418', '431', '437', '438', '450', '506', '514',
  '519', '548', '579', '581', '587', '604', '613', '639', '647', '672', '705', '709', '778', '780', '782', '807', '819', '825', '867', '873',
  '902', '905', '800', '833', '844', '855', '866', '877', '888',
];

const WORDS = ['CALL', 'HELP', 'SHOP', 'CASH', 'TAXI', 'FOOD', 'LAWN', 'CARS', 'FLOWERS', 'DENTIST', 'PIZZA', 'LAWYER'];
const JUNK = ['', ' ', 'n/a', 'N/A', 'none', 'None', 'unknown', '-', '--', '0', '.', 'TBD', 'see notes', 'no phone', 'NULL', 'null', '#N/A', 'refused', 'x', '?'];
const FOREIGN = [
  (d: (n: number) => string) => `+44 20 ${d(4)} ${d(4)}`,
  (d: (n: number) => string) => `+44 7${d(3)} ${d(6)}`,
  (d: (n: number) => string) => `+33 1 ${d(2)} ${d(2)} ${d(2)} ${d(2)}`,
  (d: (n: number) => string) => `+49 30 ${d(8)}`,
  (d: (n: number) => string) => `+91 98${d(3)} ${d(5)}`,
  (d: (n: number) => string) => `+52 55 ${d(4)} ${d(4)}`,
  (d: (n: number) => string) => `+61 4${d(2)} ${d(3)} ${d(3)}`,
  (d: (n: number) => string) => `0044 20 ${d(4)} ${d(4)}`,
  (d: (n: number) => string) => `011 44 20 ${d(4)} ${d(4)}`,
  (d: (n: number) => string) => `+86 138 ${d(4)} ${d(4)}`,
];

export type MixedKind = 'usual' | 'unusual' | 'invalid';

export interface MixedInput {
  raw: string;
  kind: MixedKind;
}

/** `count` cells: 90% usual shapes, 4% unusual ones (extensions, vanity, tel:, text around), 6% invalid. */
export function mixedInputs(count: number, seed: number): MixedInput[] {
  const r = rng(seed);
  const d = (n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) s += String(r(10));
    return s;
  };
  const out: MixedInput[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const npa = AREAS[r(AREAS.length)]!;
    const nxx = String(200 + r(800));
    const line = d(4);
    const roll = r(100);
    if (roll < 90) out[i] = { raw: usualShape(npa, nxx, line, r(1000)), kind: 'usual' };
    else if (roll < 94) out[i] = { raw: unusual(npa, nxx, line, r, d), kind: 'unusual' };
    else out[i] = { raw: invalid(npa, nxx, line, r, d), kind: 'invalid' };
  }
  return out;
}

function unusual(npa: string, nxx: string, line: string, r: (n: number) => number, d: (n: number) => string): string {
  const ext = d(1 + r(5));
  switch (r(12)) {
    case 0: return `${npa}-${nxx}-${line} ext. ${ext}`;
    case 1: return `(${npa}) ${nxx}-${line} x${ext}`;
    case 2: return `${npa}.${nxx}.${line} Extension ${ext}`;
    case 3: return `+1 ${npa}-${nxx}-${line} #${ext}`;
    case 4: return `tel:+1-${npa}-${nxx}-${line}`;
    case 5: return `1-${npa}-${WORDS[r(WORDS.length)]}`;
    case 6: return `${npa}-${nxx}-${WORDS[r(4)]}`;
    case 7: return `${npa} ${nxx} ${line} (mobile)`;
    case 8: return `cell: ${npa}-${nxx}-${line}`;
    case 9: return `011 1 ${npa} ${nxx} ${line}`;
    case 10: return `${npa}${nxx}${line} / ${npa}${d(7)}`;
    default: return `  ${npa}-${nxx}-${line}  `;
  }
}

function invalid(npa: string, nxx: string, line: string, r: (n: number) => number, d: (n: number) => string): string {
  switch (r(10)) {
    case 0: return `${npa}-${nxx}-${line.slice(0, 3)}`; // a digit short
    case 1: return `${npa}-${nxx}-${line}${d(1)}`; // a digit too many
    case 2: return `${nxx}-${line}`; // no area code
    case 3: return `${r(2)}${d(2)}-${nxx}-${line}`; // area code 0xx or 1xx
    case 4: return FOREIGN[r(FOREIGN.length)]!(d);
    case 5: return JUNK[r(JUNK.length)]!;
    case 6: return `${d(1)}`.repeat(10); // 0000000000, 1111111111 …
    case 7: return `${1 + r(12)}/${1 + r(28)}/${1950 + r(60)}`; // a date in the phone column
    case 8: return `${['john', 'mary', 'info', 'sales'][r(4)]}${r(2) ? d(2) : ''}@example.com`;
    default: return d(1 + r(15)); // random digits, any count
  }
}
