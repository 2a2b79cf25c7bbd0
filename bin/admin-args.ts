import { parseArgs } from 'node:util';

type Options = Record<string, { type: 'string' | 'boolean' }>;

/**
 * parseArgs, strict, except that a value starting with a dash and a digit (`--amount -5`) is the
 * option's value, not an unknown flag: parseArgs alone refuses it as "ambiguous" and suggests
 * `--amount=-XYZ`, which says nothing about what is wrong. The command then refuses the value
 * itself, with its own one-line reason.
 */
export function parseCommandArgs(args: readonly string[], options: Options): Record<string, string | boolean | undefined> {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const name = arg.startsWith('--') ? arg.slice(2) : null;
    const next = args[i + 1];
    if (name && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else joined.push(arg);
  }
  return parseArgs({ args: joined, options, strict: true }).values as Record<string, string | boolean | undefined>;
}
