import { describe, expect, it } from 'vitest';
import { parseJsonUpload } from '../../../lambdas/uploads/request';

const csvOf = (body: Parameters<typeof parseJsonUpload>[0]) => parseJsonUpload(body).csv.toString();

describe('JSON contacts become a CSV original', () => {
  it('keeps a mapped key that no contact has as a blank column while another mapped phone key is there (a serializer that drops nulls)', () => {
    const csv = csvOf({ contacts: [{ mobile: '2125550143' }, { mobile: '2125550144', note: 'x', name: 'Ada' }], phone_column: 'mobile', phone_columns: ['mobile', 'home'], full_name_column: 'name' });
    expect(csv).toBe('mobile,note,name,home\n2125550143,,,\n2125550144,x,Ada,\n');
  });

  it('refuses a mapped name no contact has (an identity run with no name to compare), naming the keys they have', () => {
    const contacts = [{ phone: '2125550143', Name: 'Ada' }];
    expect(() => csvOf({ contacts, phone_column: 'phone', full_name_column: 'name' })).toThrow("full_name_column 'name' is not a key of any contact; their keys: 'phone', 'Name'");
    expect(() => csvOf({ contacts, phone_column: 'phone', first_name_column: 'first', last_name_column: 'last' })).toThrow("Neither first_name_column 'first' nor last_name_column 'last' is a key of any contact; their keys: 'phone', 'Name'");
    // One of the pair is enough: a contact may have a last name only.
    expect(csvOf({ contacts: [{ phone: '2125550143', last: 'Lovelace' }], phone_column: 'phone', first_name_column: 'first', last_name_column: 'last' })).toBe('phone,last,first\n2125550143,Lovelace,\n');
  });

  it('refuses a column mapped as a phone and as a name', () => {
    expect(() => csvOf({ contacts: [{ phone: '2125550143' }], phone_column: 'phone', full_name_column: 'phone' })).toThrow("full_name_column 'phone' is also a phone column; map a column as a phone or as a name, not both");
    expect(() => csvOf({ contacts: [{ a: '2125550143', b: 'x' }], phone_column: 'a', phone_columns: ['a', 'b'], first_name_column: 'x', last_name_column: 'b' })).toThrow("last_name_column 'b' is also a phone column");
  });

  it('refuses contacts none of which has a mapped phone key, naming the keys they have', () => {
    expect(() => csvOf({ contacts: [{ Phone: '2125550143' }], phone_column: 'phone' })).toThrow("phone_column 'phone' is not a key of any contact; their keys: 'Phone'");
    expect(() => csvOf({ contacts: [{ Phone: '2125550143' }], phone_column: 'mobile', phone_columns: ['mobile', 'home'] })).toThrow("None of phone_columns 'mobile', 'home' is a key of any contact; their keys: 'Phone'");
  });

  it('reads a key whose value is null on every contact as a column of blank cells (the upload is then short of numbers, not mis-mapped)', () => {
    expect(csvOf({ contacts: [{ phone: null }, { phone: null }], phone_column: 'phone' })).toBe('phone\n""\n""\n');
  });
});
