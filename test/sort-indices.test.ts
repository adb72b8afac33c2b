/**
 * The allocation-free index sort gives the order `Array.prototype.sort` gives for a total order (ties
 * broken by index), on lists shorter and longer than its insertion runs, in number[] and Int32Array, and
 * sorts only the prefix it is given, writing nothing outside the list.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortIndices } from './helpers/internals.js';

describe('sortIndices', () => {
  it('orders indices as Array.prototype.sort does under a comparator broken by index', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 300 }), fc.nat(300), (keys, cut) => {
        const n = keys.length;
        const length = Math.min(cut, n);
        const compare = (a: number, b: number): number => keys[b]! - keys[a]! || a - b;
        // A shuffled start, so the sort has work to do whatever the keys.
        const start = Array.from(keys, (_, i) => (i * 7919) % n);
        const expected = [...start.slice(0, length).sort(compare), ...start.slice(length)];
        const list = start.slice();
        sortIndices(list, length, compare);
        expect(list).toEqual(expected);
        const typed = Int32Array.from(start);
        sortIndices(typed, length, compare);
        expect(Array.from(typed)).toEqual(expected);
      }),
    );
  });

  it('writes only inside the list: a number[] keeps exactly its index keys', () => {
    for (const length of [1, 2, 16, 17, 40]) {
      const list = Array.from({ length }, (_, i) => length - 1 - i);
      sortIndices(list, length, (a, b) => a - b);
      expect(list).toEqual(Array.from({ length }, (_, i) => i));
      expect(Object.keys(list)).toEqual(Array.from({ length }, (_, i) => String(i)));
    }
  });
});
