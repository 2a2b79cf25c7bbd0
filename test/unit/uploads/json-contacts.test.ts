import { describe, expect, it } from 'vitest';
import { parseJsonUpload } from '../../../lambdas/uploads/request';

const csvOf = (body: Parameters<typeof parseJsonUpload>[0]) => parseJsonUpload(body).csv.toString();

describe('JSON contacts become a CSV original', () => {
  it('keeps a mapped key that no contact has as a blank column while another mapped phone key is there (a serializer that drops nulls)', () => {
    const csv = csvOf({ contacts: [{ mobile: '2125550143' }, { mobile: '2125550144', note: 'x' }], phone_column: 'mobile', phone_columns: ['mobile', 'home'], full_name_column: 'name' });
    expect(csv).toBe('mobile,note,home,name\n2125550143,,,\n2125550144,x,,\n');
  });

  it('refuses contacts none of which has a mapped phone key, naming the keys they have', () => {
    expect(() => csvOf({ contacts: [{ Phone: '2125550143' }], phone_column: 'phone' })).toThrow("phone_column 'phone' is not a key of any contact; their keys: 'Phone'");
    expect(() => csvOf({ contacts: [{ Phone: '2125550143' }], phone_column: 'mobile', phone_columns: ['mobile', 'home'] })).toThrow("None of phone_columns 'mobile', 'home' is a key of any contact; their keys: 'Phone'");
  });

  it('reads a key whose value is null on every contact as a column of blank cells (the upload is then short of numbers, not mis-mapped)', () => {
    expect(csvOf({ contacts: [{ phone: null }, { phone: null }], phone_column: 'phone' })).toBe('phone\n""\n""\n');
  });
});
