import { describe, expect, it } from 'vitest';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import full from 'libphonenumber-js/metadata.max.json';
import stored from '../../../lambdas/classification/nanp-metadata.max.json';
import { nanpSubset } from '../../../lambdas/classification/nanp-subset';
import { analyzeWithLibphonenumber } from '../../../lambdas/classification/normalize';
import { phoneInputs } from '../../support/phone-inputs';

// The bundles carry only the +1 metadata (issue 15, item 5). It must be exactly the +1 part of the
// installed libphonenumber-js (run `npm run metadata:nanp` after an upgrade), and it must answer
// every +1 input as the full max metadata does.

describe('NANP-only phone metadata', () => {
  it('is the +1 part of the installed max metadata', () => {
    expect(stored).toEqual(nanpSubset(full as never));
  });

  it('answers as the full max metadata for every input of +1, and refuses the others', () => {
    for (const raw of phoneInputs(20_000, 3)) {
      const ours = analyzeWithLibphonenumber(raw);
      const parsed = parsePhoneNumberFromString(raw, 'US');
      if (parsed && parsed.countryCallingCode !== '1') {
        expect(ours.valid, raw).toBe(false);
        continue;
      }
      const valid = parsed?.isValid() ?? false;
      expect(ours, raw).toEqual({ valid, e164: valid ? parsed!.number : null, region: valid ? (parsed!.country ?? null) : null, type: valid ? (parsed!.getType() ?? null) : null });
    }
  });
});
