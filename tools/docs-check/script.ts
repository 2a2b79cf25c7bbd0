import type { DocCommand } from './commands';

// One bash script for a markdown file's runnable commands, in order, in one shell (so an id a block
// sets is there for the next block, as in the reader's terminal). Each command's stdout, stderr and
// exit code go to files named by its index under $DOCS_CHECK_OUT; the runner reads them.
// The first command that exits non-zero ends the script.

export function buildScript(commands: DocCommand[]): string {
  const parts = ['set +e', 'cd "$DOCS_CHECK_CWD"'];
  commands.forEach((command, index) => {
    parts.push(`echo ${index} > "$DOCS_CHECK_OUT/current"`);
    // The command inside braces runs in this shell (its variables stay); the brace on its own line
    // keeps a trailing comment from hiding it.
    parts.push(`{\n${command.text}\n} > "$DOCS_CHECK_OUT/${index}.out" 2> "$DOCS_CHECK_OUT/${index}.err" < /dev/null`);
    // A command that failed ends the file's run: the ones after it depend on what it should have set.
    parts.push(`rc=$?; echo $rc > "$DOCS_CHECK_OUT/${index}.rc"; [ $rc -eq 0 ] || exit 0`);
  });
  return `${parts.join('\n')}\n`;
}
