import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../../src/contracts/catalogue-query';

/** The order PostgreSQL's "C" collation gives: code point by code point. */
function byCodePointsOneByOne(a: string, b: string): number {
  const left = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const right = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    if (left[i] !== right[i]) return (left[i] ?? 0) - (right[i] ?? 0);
  }
  return left.length - right.length;
}

// Letters, marks of Romanian and Italian names, the last characters before the surrogates,
// those after them, and characters beyond the Basic Multilingual Plane.
const ALPHABET = ['a', 'z', 'ș', 'à', ' ', '\uD7FF', '\uE000', '\uFB01', '\uFFFD', '😀', '𝒜', '🧴'];

function randomName(random: () => number): string {
  const length = Math.floor(random() * 5);
  return Array.from({ length }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('');
}

/** A small seeded generator: the same names on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('the name order of the catalogue on the device', () => {
  it('orders characters beyond U+FFFF after U+E000–U+FFFF, as the server does', () => {
    expect(compareCodePoints('\uFFFD', '😀')).toBeLessThan(0);
    expect(compareCodePoints('𝒜', '\uE000')).toBeGreaterThan(0);
    expect(compareCodePoints('\uD7FF', '🧴')).toBeLessThan(0);
    expect(compareCodePoints('sampon', 'sampon 😀')).toBeLessThan(0);
    expect(compareCodePoints('șampon', 'șampon')).toBe(0);
  });

  it('agrees with code point order on every pair of 2,000 mixed names', () => {
    const random = seeded(7);
    const names = Array.from({ length: 2_000 }, () => randomName(random));
    for (let i = 1; i < names.length; i += 1) {
      const [a, b] = [names[i - 1] ?? '', names[i] ?? ''];
      expect(Math.sign(compareCodePoints(a, b)), `${a} vs ${b}`).toBe(
        Math.sign(byCodePointsOneByOne(a, b)),
      );
    }
    const sorted = [...names].sort(compareCodePoints);
    expect(sorted).toEqual([...names].sort(byCodePointsOneByOne));
  });
});
