import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractBlocks, untaggedCommands } from '../../../tools/docs-check/blocks';
import { commentStart, parseCommands, uncheckedOutputClaims } from '../../../tools/docs-check/commands';
import { docFileNames, readDocFile } from '../../../tools/docs-check/docs-files';
import { outputMatches } from '../../../tools/docs-check/expectation';
import { buildScript } from '../../../tools/docs-check/script';
import { bannerVars } from '../../../tools/docs-check/service';
import { ADMIN_COMMANDS } from '../../../bin/admin-commands';

// `npm run docs:check` (tools/docs-check): its rules as plain functions, and the docs held to its
// convention without the service. test/integration/api/docs-check.test.ts runs the blocks.

const root = join(import.meta.dirname, '../../..');

describe('docs:check: reading the markdown', () => {
  it('finds fenced blocks with their line, language and skip marker', () => {
    const md = ['# t', '```sh', 'echo a', '```', '', '<!-- docs-check: skip needs AWS -->', '```bash', 'aws s3 ls', '```', '```', 'npm start', '```'].join('\n');
    const blocks = extractBlocks('x.md', md);
    expect(blocks.map((b) => [b.line, b.lang, b.code, b.skip])).toEqual([
      [2, 'sh', 'echo a', null],
      [7, 'bash', 'aws s3 ls', 'needs AWS'],
      [10, '', 'npm start', null],
    ]);
    expect(untaggedCommands(blocks[2]!)).toEqual(['npm start']);
    expect(untaggedCommands(blocks[0]!)).toEqual([]);
  });

  it('a skip marker counts only right above its block, and an unclosed block is an error', () => {
    const md = ['<!-- docs-check: skip far away -->', '', '```sh', 'echo a', '```'].join('\n');
    expect(extractBlocks('x.md', md)[0]!.skip).toBeNull();
    expect(() => extractBlocks('x.md', '```sh\necho a\n')).toThrow(/x.md:1: code block never closed/);
  });

  it('finds a comment only outside quotes', () => {
    expect(commentStart('echo a # b')).toBe(7);
    expect(commentStart(`echo '# not' "# not" # yes`)).toBe(21);
    expect(commentStart('echo a\\ #b')).toBe(-1);
    expect(commentStart('curl "$API/x#frag"')).toBe(-1);
    expect(commentStart('echo a#b')).toBe(-1);
  });

  it('splits commands, joins continued lines and takes `# →` as the stated output', () => {
    const code = ['A=$(x) # sets A', 'curl -s \\', '  -H "h: 1"   # → {"ok":true}', '# prose', 'echo one', '# → one', '# → two', 'echo three # three'].join('\n');
    expect(parseCommands(code, 10)).toEqual([
      { line: 10, text: 'A=$(x) # sets A', expect: null },
      { line: 11, text: 'curl -s \\\n  -H "h: 1"   # → {"ok":true}', expect: '{"ok":true}' },
      { line: 14, text: 'echo one', expect: 'one\ntwo' },
      { line: 17, text: 'echo three # three', expect: null },
    ]);
  });

  it('an output comment with no command above it is an error', () => {
    expect(() => parseCommands('# → 204\necho', 3)).toThrow(/line 3/);
  });

  it('flags outputs stated without the arrow', () => {
    expect(uncheckedOutputClaims('curl x   # {"a":1}\ncurl y # 204\ncurl z # → 204\ncurl w # 120 numbers')).toEqual(['curl x   # {"a":1}', 'curl y # 204']);
  });
});

describe('docs:check: judging an output', () => {
  it('matches exactly, `…` standing for any text, JSON spacing not counting', () => {
    expect(outputMatches('{"a": 1, "b": […]}', '{"a":1,"b":[2,3]}\n')).toBe(true);
    expect(outputMatches('{"a":1,…}', '{"a":1,"b":{"c":[1]}}')).toBe(true);
    expect(outputMatches('…/.certs/ca-cert.pem', '/tmp/w/.certs/ca-cert.pem\n')).toBe(true);
    expect(outputMatches('204', '204\n')).toBe(true);
    expect(outputMatches('one\ntwo', 'one\ntwo\n')).toBe(true);
  });

  it('refuses other output: a different value, more or less text, nothing at all', () => {
    expect(outputMatches('{"a":1}', '{"a":2}')).toBe(false);
    expect(outputMatches('204', '404')).toBe(false);
    expect(outputMatches('204', '2040')).toBe(false);
    expect(outputMatches('{"a":1}', '{"a":1}{"a":1}')).toBe(false);
    expect(outputMatches('{"a":1}', '')).toBe(false);
    expect(outputMatches('{"a":…}', '{"b":1}')).toBe(false);
  });

  it('takes regular-expression characters in the docs literally', () => {
    expect(outputMatches('a.b (c)*', 'a.b (c)*')).toBe(true);
    expect(outputMatches('a.b', 'axb')).toBe(false);
    expect(outputMatches('[$^]', '[$^]')).toBe(true);
  });
});

describe('docs:check: running', () => {
  it('the script runs each command in one shell, records its output and exit code, and stops at the first failure', () => {
    const script = buildScript(parseCommands('A=1 # sets A\necho $A   # → 1', 1));
    expect(script).toContain('{\nA=1 # sets A\n} > "$DOCS_CHECK_OUT/0.out"');
    expect(script).toContain('{\necho $A   # → 1\n} > "$DOCS_CHECK_OUT/1.out" 2> "$DOCS_CHECK_OUT/1.err"');
    expect(script).toContain('rc=$?; echo $rc > "$DOCS_CHECK_OUT/1.rc"; [ $rc -eq 0 ] || exit 0');
  });

  it('reads the variables of the banner’s export line', () => {
    const banner = 'In another terminal…\n  export API=http://127.0.0.1:3000 KEY=svc_live_abc ORG=o-1 DATA_DIR=/tmp/d\n';
    expect(bannerVars(banner)).toEqual({ API: 'http://127.0.0.1:3000', KEY: 'svc_live_abc', ORG: 'o-1', DATA_DIR: '/tmp/d' });
    expect(bannerVars('  export API=http://127.0.0.1:3000 ORG=o-1\n')).toBeNull();
  });
});

describe('the docs follow the docs:check convention', () => {
  const files = docFileNames(root).map((file) => readDocFile(root, file));

  it('covers README.md and every docs/*.md', () => {
    expect(files.map((f) => f.file)).toContain('README.md');
    expect(files.map((f) => f.file)).toContain('docs/operations.md');
  });

  it('no block breaks it: commands only in shell blocks, outputs stated with `# →`', () => {
    expect(files.flatMap((f) => f.problems)).toEqual([]);
  });

  it('every admin command a block names exists, in the blocks it skips too', () => {
    const named = docFileNames(root).flatMap((file) =>
      extractBlocks(file, readFileSync(join(root, file), 'utf8')).flatMap((block) => [...block.code.matchAll(/npm run (?:-s )?admin -- ([a-z-]+)/g)].map((m) => `${file}:${block.line} ${m[1]!}`)),
    );
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((entry) => !(entry.split(' ')[1]! in ADMIN_COMMANDS) && !entry.endsWith(' help'))).toEqual([]);
  });

  it('every block it does not run is marked with a reason, and most of the README runs', () => {
    for (const block of files.flatMap((f) => f.skipped)) expect(block.skip!.length, `${block.file}:${block.line}`).toBeGreaterThan(10);
    const readme = files.find((f) => f.file === 'README.md')!;
    expect(readme.commands.length).toBeGreaterThan(40);
    expect(readme.commands.filter((c) => c.expect !== null).length).toBeGreaterThan(15);
  });
});
