// `npm run metadata:nanp`: rewrites nanp-metadata.max.json from the installed libphonenumber-js
// (after upgrading it; test/unit/classification/nanp-metadata-file.test.ts fails until then).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import full from 'libphonenumber-js/metadata.max.json';
import { nanpSubset } from './nanp-subset';

writeFileSync(fileURLToPath(new URL('./nanp-metadata.max.json', import.meta.url)), JSON.stringify(nanpSubset(full as never)) + '\n');
