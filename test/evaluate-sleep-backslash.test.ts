import { describe, expect, it } from 'vitest';
import { parseSleep } from './helpers/internals.js';

describe('parseSleep and the backslash', () => {
  it.each([
    ['sleep 1\\0', 10],
    ['\\sleep 3', 3],
    ['sleep \\5', 5],
    ['sleep 5\\', 5],
    ['sleep 5 \\; sleep 2', undefined],
  ])('reads %j as %j: a backslash takes the next character literally', (command, seconds) => {
    expect(parseSleep(command)).toBe(seconds);
  });
});
