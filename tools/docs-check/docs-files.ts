import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractBlocks, SHELL_LANGS, untaggedCommands, type DocBlock } from './blocks';
import { parseCommands, uncheckedOutputClaims, type DocCommand } from './commands';

// What the docs check covers: README.md, then docs/*.md by name; per file, the shell blocks it
// runs (as commands), the ones the docs mark as not runnable here, and what breaks the convention.

export interface DocFile {
  file: string;
  commands: DocCommand[];
  skipped: DocBlock[];
  problems: string[];
}

export function docFileNames(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

export function readDocFile(root: string, file: string): DocFile {
  const blocks = extractBlocks(file, readFileSync(join(root, file), 'utf8'));
  const result: DocFile = { file, commands: [], skipped: [], problems: [] };
  for (const block of blocks) {
    for (const line of untaggedCommands(block)) result.problems.push(`${file}:${block.line}: a command in a block not tagged sh: ${line.trim()}`);
    if (!SHELL_LANGS.has(block.lang)) continue;
    if (block.skip !== null) {
      result.skipped.push(block);
      continue;
    }
    for (const claim of uncheckedOutputClaims(block.code)) result.problems.push(`${file}:${block.line}: an output stated without \`# →\`: ${claim}`);
    try {
      result.commands.push(...parseCommands(block.code, block.line + 1));
    } catch (error) {
      result.problems.push(`${file}:${block.line}: ${(error as Error).message}`);
    }
  }
  return result;
}
