// A shell block as the commands it runs, each with what the docs say it prints. The convention:
// a comment that starts with `→` states the command's whole output, `…` standing for any text;
// it ends the command's last line (`cmd   # → 204`) or is a comment line of its own right below
// the command (several such lines: several output lines). Other comments are prose, not checked.

export interface DocCommand {
  /** 1-based line in the markdown file where the command starts. */
  line: number;
  /** The command's lines as written (continuation lines and comments included). */
  text: string;
  /** What the docs say it prints, or null when they do not say. */
  expect: string | null;
}

/** Where a line's comment starts (`#` after whitespace, outside quotes), or -1. */
export function commentStart(line: string): number {
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === '\\') {
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#' && (i === 0 || (/\s/.test(line[i - 1]!) && line[i - 2] !== '\\'))) {
      // (after whitespace that is not escaped: `a\ #b` is one word)
      return i;
    }
  }
  return -1;
}

const EXPECT = /^#\s*→\s?(.*)$/;

/** The commands of a shell block whose first line is at `firstLine` of its file. */
export function parseCommands(code: string, firstLine: number): DocCommand[] {
  const commands: DocCommand[] = [];
  const lines = code.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (trimmed === '') continue;
    if (trimmed.startsWith('#')) {
      const expect = EXPECT.exec(trimmed);
      const last = commands.at(-1);
      if (expect && !last) throw new Error(`line ${firstLine + i}: an output comment (# →) with no command above it`);
      if (expect && last) last.expect = last.expect === null ? expect[1]! : `${last.expect}\n${expect[1]!}`;
      continue;
    }
    const start = i;
    while (/\\$/.test(lines[i]!) && i + 1 < lines.length) i++;
    const lastLine = lines[i]!;
    const at = commentStart(lastLine);
    const comment = at === -1 ? null : EXPECT.exec(lastLine.slice(at).trim());
    commands.push({ line: firstLine + start, text: lines.slice(start, i + 1).join('\n'), expect: comment ? comment[1]! : null });
  }
  return commands;
}

/** Comments that state an output (JSON, a status code) without the `→` that makes it checked. */
export function uncheckedOutputClaims(code: string): string[] {
  const claims: string[] = [];
  for (const line of code.split('\n')) {
    const at = commentStart(line);
    if (at === -1) continue;
    const comment = line.slice(at + 1).trim();
    if (/^([{[]|\d{3}$)/.test(comment)) claims.push(line.trim());
  }
  return claims;
}
