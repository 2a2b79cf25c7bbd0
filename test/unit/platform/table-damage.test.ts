import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { damagedTableFiles, hasTableFooter, tableDamage } from '../../../local/embedded-dynamodb-integrity';
import { tempDir } from '../../support/temp-dirs';

// Which LevelDB errors mean the embedded table's files are damaged (the start is refused with what
// to do), and which file to name.

const footer = (): Buffer => Buffer.concat([Buffer.alloc(40), Buffer.from('57fb808b247547db', 'hex')]);

describe('embedded table damage', () => {
  it('is LevelDB corruption or an I/O error on its files, at open (as the cause) or at a read; a locked or unreadable folder is not', () => {
    expect(tableDamage({ code: 'LEVEL_CORRUPTION', message: 'Corruption: not an sstable (bad magic number)' })).toEqual({ reason: 'Corruption: not an sstable (bad magic number)', file: null });
    expect(tableDamage({ code: 'LEVEL_DATABASE_NOT_OPEN', message: 'Database failed to open', cause: { code: 'LEVEL_CORRUPTION', message: 'Corruption: 1 missing files; e.g.: /d/dynamodb/000005.ldb' } })).toEqual({
      reason: 'Corruption: 1 missing files; e.g.: /d/dynamodb/000005.ldb',
      file: '/d/dynamodb/000005.ldb',
    });
    expect(tableDamage({ code: 'LEVEL_IO_ERROR', message: 'IO error: /d/dynamodb/000005.ldb: Invalid argument' })?.file).toBe('/d/dynamodb/000005.ldb');
    expect(tableDamage({ code: 'LEVEL_IO_ERROR', message: 'IO error: /d/dynamodb/LOCK: Permission denied' })).toBeNull();
    expect(tableDamage({ code: 'LEVEL_DATABASE_NOT_OPEN', message: 'Database failed to open', cause: { code: 'LEVEL_LOCKED', message: 'Database is not open' } })).toBeNull();
    expect(tableDamage(new Error('anything else'))).toBeNull();
  });

  it('names the table files whose footer is not whole (overwritten, truncated)', () => {
    const dir = tempDir('table-damage-');
    writeFileSync(join(dir, '000004.ldb'), Buffer.concat([Buffer.alloc(100, 1), footer()]));
    writeFileSync(join(dir, '000005.ldb'), Buffer.alloc(200, 9));
    writeFileSync(join(dir, '000006.ldb'), footer().subarray(0, 20));
    writeFileSync(join(dir, '000007.log'), 'not a table');
    expect(damagedTableFiles(dir)).toEqual(['000005.ldb', '000006.ldb']);
    expect(hasTableFooter(footer())).toBe(true);
    expect(hasTableFooter(footer().subarray(1))).toBe(false);
  });
});
