/**
 * The subset sums' kept buffers (src/solve/dp/subset-sum/setup.ts, SubsetSumScratch): the bitset grows to
 * the capacity's words, doubling while below the kept size; the log grows by doubling, to the kept size and
 * then past it; a store keeps the scratch for the next solve only while both are within their kept sizes
 * (so a large solve's memory is not held), and asking for room it has changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { SUBSET_SUM_KEEP_CAPACITY, SUBSET_SUM_KEEP_ENTRIES, SubsetSumScratch } from './helpers/internals.js';

const KEPT_WORDS = SUBSET_SUM_KEEP_CAPACITY >>> 5;

describe("the subset sums' scratch", () => {
  it("grows its bitset to the capacity's words, doubling while below the kept size", () => {
    const s = new SubsetSumScratch();
    expect(s.bits.length).toBe(64);
    s.reserve(100 * 32);
    expect(s.bits.length).toBe(128);
    expect(s.head.length).toBe(128);
    s.reserve(200 * 32);
    expect(s.bits.length).toBe(256);
    s.reserve(8000 * 32);
    expect(s.bits.length).toBe(8001);
    // A capacity it already holds, up to its last word, changes nothing.
    const bits = s.bits;
    s.reserve(50 * 32);
    s.reserve(8000 * 32 + 31);
    expect(s.bits).toBe(bits);
  });

  it('grows its log by doubling to the kept size, then past it, and not while it has room', () => {
    const s = new SubsetSumScratch();
    const item = s.item;
    s.grow(10);
    expect(s.item).toBe(item);
    const lengths: number[] = [];
    while (s.item.length <= SUBSET_SUM_KEEP_ENTRIES) {
      s.item[s.item.length - 1] = 7;
      s.grow(s.item.length);
      lengths.push(s.item.length);
      expect(s.item[lengths.length === 1 ? 1023 : lengths[lengths.length - 2]! - 1]).toBe(7);
    }
    // Each growth doubles: from its first 1,024 entries, 2,048, 4,096, ... up to the kept size.
    expect(lengths).toEqual(lengths.map((_, i) => 2048 * 2 ** i));
    expect(lengths.at(-2)).toBe(SUBSET_SUM_KEEP_ENTRIES);
    expect(lengths.at(-1)).toBe(2 * SUBSET_SUM_KEEP_ENTRIES);
    expect(s.mask.length).toBe(s.item.length);
    expect(s.prev.length).toBe(s.item.length);
  });

  it('is kept for the next solve while its bitset and its log are within their kept sizes, and not past them', () => {
    const atBitset = new SubsetSumScratch();
    atBitset.reserve((KEPT_WORDS - 1) * 32);
    expect(atBitset.bits.length).toBe(KEPT_WORDS);
    expect(atBitset.small).toBe(true);
    atBitset.reserve(KEPT_WORDS * 32);
    expect(atBitset.bits.length).toBe(KEPT_WORDS + 1);
    expect(atBitset.small).toBe(false);

    const atLog = new SubsetSumScratch();
    while (atLog.item.length < SUBSET_SUM_KEEP_ENTRIES) atLog.grow(atLog.item.length);
    expect(atLog.item.length).toBe(SUBSET_SUM_KEEP_ENTRIES);
    expect(atLog.small).toBe(true);
    atLog.grow(atLog.item.length);
    expect(atLog.small).toBe(false);
  });
});
