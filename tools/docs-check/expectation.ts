// Whether a command's output is what the docs say: the stated text with `…` matching any text
// (newlines included), spaces around JSON punctuation and runs of whitespace not counting.

const normalize = (text: string): string =>
  text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/ ?([{}[\],:]) ?/g, '$1');

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function outputMatches(expected: string, output: string): boolean {
  const pattern = normalize(expected).split('…').map(escape).join('[\\s\\S]*');
  return new RegExp(`^${pattern}$`).test(normalize(output));
}
