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

describe('parseSleep and quotes inside the word sleep', () => {
  it.each([
    ['sl"ee"p 5', 5],
    ["sle'e'p 2m", 120],
    ['sle\\ep 3', 3],
    ['"/bin/sleep" 4', 4],
    ['echo sl"ee"p', undefined],
  ])('reads %j as %j, as the shell would', (command, seconds) => {
    expect(parseSleep(command)).toBe(seconds);
  });
});
