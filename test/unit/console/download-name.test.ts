import { describe, expect, it } from 'vitest';
import { processedFilename } from '../../../lambdas/console/download-name';

describe('processedFilename', () => {
  it('names each slice after what it holds; the safe full file keeps the plain name', () => {
    expect(processedFilename('spring.csv', { neutralize_formulas: 'true' })).toBe('spring_processed.csv');
    expect(processedFilename('spring.CSV', {})).toBe('spring_processed_as-uploaded.csv');
    expect(processedFilename('spring.csv', { statuses: 'Tier 1,Tier 2', sort: 'best_status', neutralize_formulas: 'true' })).toBe('spring_processed_tier-1+tier-2_best-first.csv');
    expect(processedFilename('s.csv', { statuses: 'a,b,c,d,e', include_identity: 'true', neutralize_formulas: 'true' })).toBe('s_processed_5-statuses_with-identity.csv');
    // Hostile status text cannot put path or quote characters in the name.
    expect(processedFilename('s.csv', { statuses: '../"x";\r\n', neutralize_formulas: 'true' })).toBe('s_processed_x.csv');
  });

  it("a file the console converted (a workbook, a .txt) names its processed file without the old extension", () => {
    expect(processedFilename('contacts.xlsx', { neutralize_formulas: 'true' })).toBe('contacts_processed.csv');
    expect(processedFilename('tabbed.txt', { sort: 'best_status', neutralize_formulas: 'true' })).toBe('tabbed_processed_best-first.csv');
    expect(processedFilename('no-extension', { neutralize_formulas: 'true' })).toBe('no-extension_processed.csv');
  });
});
