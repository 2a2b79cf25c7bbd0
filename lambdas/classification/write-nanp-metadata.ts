// `npm run metadata:nanp`: rewrites nanp-metadata.max.json from the installed libphonenumber-js,
// then nanp-prefixes.json (libphonenumber-js's answer for every deciding prefix) and
// nanp-shapes.json (where a valid number can be, by length and first digits) from it (after
// upgrading it; test/unit/classification/nanp-metadata-file.test.ts, nanp-prefix-table.test.ts and
// nanp-shapes.test.ts fail until then).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import full from 'libphonenumber-js/metadata.max.json';
import { nanpSubset } from './nanp-subset';

const subset = nanpSubset(full as never);
writeFileSync(fileURLToPath(new URL('./nanp-metadata.max.json', import.meta.url)), JSON.stringify(subset) + '\n');
// Imported only now: nanp-metadata.ts derives the deciding digits from the file just written.
const { decidingDigitsOfArea } = await import('./nanp-metadata');
const { buildValidShapes } = await import('./nanp-pattern-shapes');
const { buildPrefixTable } = await import('./nanp-prefix-table-build');
const shapes = buildValidShapes();
const table = buildPrefixTable(subset as never, decidingDigitsOfArea, shapes);
writeFileSync(fileURLToPath(new URL('./nanp-prefixes.json', import.meta.url)), JSON.stringify(table) + '\n');
writeFileSync(fileURLToPath(new URL('./nanp-shapes.json', import.meta.url)), JSON.stringify(shapes) + '\n');
