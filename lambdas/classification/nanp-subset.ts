// The +1 (NANP) part of libphonenumber-js's max metadata: every region sharing +1 (the US and
// Canada, and the territories the service refuses, which must still be recognised as theirs), and
// nothing else. The service parses nothing but +1 numbers (a foreign number is refused either way),
// so its bundles carry this instead of the metadata of every country (~157 KB).

interface MaxMetadata {
  version: number;
  country_calling_codes: Record<string, string[]>;
  countries: Record<string, unknown>;
  nonGeographic?: Record<string, unknown>;
}

export function nanpSubset(full: MaxMetadata): MaxMetadata {
  const regions = full.country_calling_codes['1'] ?? [];
  return {
    version: full.version,
    country_calling_codes: { '1': regions },
    countries: Object.fromEntries(regions.map((r) => [r, full.countries[r]])),
    nonGeographic: {},
  };
}
