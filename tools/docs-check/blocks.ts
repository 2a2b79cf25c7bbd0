// The fenced code blocks of a markdown file, each with where it starts and whether the docs mark it
// as one the docs check cannot run here (`<!-- docs-check: skip REASON -->` on the line above).

export interface DocBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The fence's info string: `sh`, `json`, `` (none)… */
  lang: string;
  code: string;
  /** Why the docs check does not run it, when the docs say so. */
  skip: string | null;
}

export const SHELL_LANGS = new Set(['sh', 'bash', 'shell']);
const SKIP_MARKER = /^<!--\s*docs-check:\s*skip\s+(.+?)\s*-->$/;

export function extractBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`${file}:${start + 1}: code block never closed`);
    const marker = SKIP_MARKER.exec((lines[start - 1] ?? '').trim());
    blocks.push({ file, line: start + 1, lang: open[1]!, code: body.join('\n'), skip: marker ? marker[1]! : null });
  }
  return blocks;
}

/** Lines of a block not tagged as shell that look like commands a reader would run. */
export function untaggedCommands(block: DocBlock): string[] {
  if (SHELL_LANGS.has(block.lang) || block.lang !== '') return [];
  return block.code.split('\n').filter((line) => /^\s*(\$ )?(npm|npx|curl|node|bash|aws|git|docker)\s/.test(line));
}
