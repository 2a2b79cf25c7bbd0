import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The README's shell blocks run as written (issue 16, item 13), in order, in a second terminal where
// the banner's `export API=… KEY=… ORG=…` line was pasted. Running them needs the service; this test
// checks what can go stale without it: every variable a block reads is set by the banner line or by
// the block itself before use, no block hard-codes the service address, and the files they send exist.

const root = join(import.meta.dirname, '../../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].map((m) => m[1]!);
/** What the banner's export line sets (bin/local.ts). */
const FROM_BANNER = ['API', 'KEY', 'ORG', 'DATA_DIR'];

describe('README shell blocks', () => {
  it('the banner line sets what the blocks rely on', () => {
    const banner = readFileSync(join(root, 'bin/local.ts'), 'utf8');
    expect(banner).toContain('export API=${url} KEY=${runtime.demo.apiKey} ORG=${runtime.demo.organizationId}${dataDirVar}');
  });

  it('every variable a block reads is set before it, by the banner or the block', () => {
    expect(blocks.length).toBeGreaterThan(5);
    for (const block of blocks) {
      const defined = new Set(FROM_BANNER);
      for (const line of block.split('\n')) {
        const code = line.replace(/\s#\s.*$/, '');
        // `${NAME:-default}` carries its own value when NAME is unset.
        const used = [...code.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_]|:[-=])/g)].map((m) => m[1]!);
        // Inside `$(...)` of an assignment the right side runs first; so check uses, then add definitions.
        for (const name of used) expect(defined.has(name), `README block uses $${name} before setting it:\n${block}`).toBe(true);
        for (const m of code.matchAll(/(?:^|[\s;&]|export\s+)([A-Za-z_][A-Za-z0-9_]*)=/g)) defined.add(m[1]!);
      }
    }
  });

  it('no block hard-codes the service address; API calls go through $API', () => {
    for (const block of blocks) {
      const code = block.replace(/\s#\s.*$/gm, '');
      expect(code, block).not.toMatch(/http:\/\/(127\.0\.0\.1|localhost):3000/);
    }
  });

  it('files the blocks send exist, and the JSON upload holds at least 100 numbers', () => {
    const files = blocks.flatMap((b) => [...b.matchAll(/(?:-d\s+|-F\s+file=)@(\S+)/g)].map((m) => m[1]!));
    expect(files).toContain('examples/upload.json');
    for (const file of files) expect(existsSync(join(root, file)), file).toBe(true);
    const upload = JSON.parse(readFileSync(join(root, 'examples/upload.json'), 'utf8')) as { phone_numbers: string[] };
    expect(new Set(upload.phone_numbers).size).toBeGreaterThanOrEqual(100);
  });

  it('the example webhook receiver does not take the service port', () => {
    const receiver = readFileSync(join(root, 'examples/webhook-receiver.ts'), 'utf8');
    expect(receiver).toMatch(/RECEIVER_PORT \?\? 4000/);
    expect(readme).not.toMatch(/\.listen\(3000/);
  });
});
