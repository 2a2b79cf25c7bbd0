import { describe, expect, it } from 'vitest';
import { firstInexactNumber, sameDecimal } from '../../../lambdas/platform/http/json-numbers';

const bytes = (text: string) => Buffer.from(text, 'utf8');

/** A numeral's value as an integer `digits` times 10^`exponent`, by BigInt: an oracle apart from the module's own normalization. */
function scaled(numeral: string): { digits: bigint; exponent: number } | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(numeral);
  if (!m) return null;
  const fraction = m[3] ?? '';
  return { digits: BigInt(`${m[1]}${m[2]}${fraction}`), exponent: Number(m[4] ?? 0) - fraction.length };
}
function equalByBigInt(a: string, b: string): boolean {
  const x = scaled(a);
  const y = scaled(b);
  if (!x || !y) return false;
  const e = Math.min(x.exponent, y.exponent);
  return x.digits * 10n ** BigInt(x.exponent - e) === y.digits * 10n ** BigInt(y.exponent - e);
}

describe('firstInexactNumber', () => {
  it('names a number a double does not give back, and lets every other one through', () => {
    expect(firstInexactNumber(bytes('{"big":12345678901234567890}'))).toBe('12345678901234567890');
    expect(firstInexactNumber(bytes('{"id":9007199254740993}'))).toBe('9007199254740993');
    expect(firstInexactNumber(bytes('[1e400]'))).toBe('1e400');
    expect(firstInexactNumber(bytes('[-1e-400]'))).toBe('-1e-400');
    expect(firstInexactNumber(bytes('[1.000000000000000000001]'))).toBe('1.000000000000000000001');
    for (const ok of ['[9007199254740991]', '[-9007199254740991]', '[0.1]', '[1.50]', '[1e2]', '[2.5E-3]', '[-0]', '[123456789012345.67]', '[1.7976931348623157e308]', '[0.000001]', '[100000000000000000000]', '{"a":[1,2,{"b":-3.25}]}']) {
      expect(firstInexactNumber(bytes(ok)), ok).toBeNull();
    }
  });

  it('reads no number inside a string, escaped quotes included', () => {
    expect(firstInexactNumber(bytes('{"n":"12345678901234567890","m":"a\\"12345678901234567890\\"b"}'))).toBeNull();
    expect(firstInexactNumber(bytes('{"k\\\\":12345678901234567890}'))).toBe('12345678901234567890');
    expect(firstInexactNumber(bytes('{"naïve 東京":"x","v":12345678901234567890}'))).toBe('12345678901234567890');
  });

  it('agrees with an exact decimal comparison on 20,000 random numerals', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const digits = (n: number) => Array.from({ length: n }, () => String(rand(10))).join('');
    let refused = 0;
    for (let k = 0; k < 20_000; k++) {
      const whole = String(BigInt(`1${digits(rand(25))}`) - (rand(2) ? 0n : 1n));
      const fraction = rand(3) ? '' : `.${digits(1 + rand(20))}`;
      const exponent = rand(4) ? '' : `e${rand(2) ? '-' : ''}${rand(330)}`;
      const numeral = `${rand(2) ? '-' : ''}${whole}${fraction}${exponent}`;
      const exact = equalByBigInt(numeral, String(Number(numeral)));
      expect(firstInexactNumber(bytes(`{"v":${numeral}}`)), numeral).toBe(exact ? null : numeral);
      expect(sameDecimal(numeral, String(Number(numeral)))).toBe(exact);
      if (!exact) refused++;
    }
    // Both kinds are drawn: the comparison is not vacuous either way.
    expect(refused).toBeGreaterThan(1_000);
    expect(refused).toBeLessThan(19_000);
  });
});
