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

describe('parseSleep and single quotes', () => {
  it.each([
    ["sleep '5'", 5],
    ["'sleep' 1m", 60],
    ["echo 'a; sleep 5'", undefined],
    ["sleep '5", undefined],
    ["echo 'it''s'; sleep 2", 2],
  ])('reads %j as %j: what single quotes enclose is one word, quotes removed', (command, seconds) => {
    expect(parseSleep(command)).toBe(seconds);
  });
});

describe('parseSleep and double quotes', () => {
  it.each([
    ['echo "a; sleep 5"', undefined],
    ['sleep "5"', 5],
    ['"sleep" 3 && echo "done; sleep 9"', 3],
    ['sleep "5\\"', undefined],
    ['echo "\\"" ; sleep 5', 5],
    ['sleep 2; echo "x', undefined],
  ])('reads %j as %j: what double quotes enclose is one word, quotes removed', (command, seconds) => {
    expect(parseSleep(command)).toBe(seconds);
  });
});

describe('parseSleep and blanks', () => {
  it.each([
    ['sleep\t5', 5],
    ['sleep 1 \t 2', 3],
  ])('reads %j as %j: a tab separates words as a space does', (command, seconds) => {
    expect(parseSleep(command)).toBe(seconds);
  });
});
