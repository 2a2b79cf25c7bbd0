import { describe, expect, it } from 'vitest';
import { jsonNestingDepth } from '../../../lambdas/platform/http/json-depth';

const depth = (text: string) => jsonNestingDepth(Buffer.from(text));

describe('jsonNestingDepth', () => {
  it('counts objects and arrays together', () => {
    expect(depth('1')).toBe(0);
    expect(depth('{}')).toBe(1);
    expect(depth('{"a":[{"b":[]}]}')).toBe(4);
    expect(depth('[[],[[]],[]]')).toBe(3);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(depth('{"a":"[[[{{{"}')).toBe(1);
    expect(depth('{"a":"\\"[[[","b":"\\\\"}')).toBe(1);
    expect(depth('["\\\\",["x"]]')).toBe(2);
    expect(depth('{"é[":"ü{"}')).toBe(1);
  });

  it('reads 10,000 levels without recursion and stops early when asked', () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    expect(depth(deep)).toBe(10_000);
    expect(jsonNestingDepth(Buffer.from(deep), 64)).toBe(65);
  });
});
