import { describe, expect, it } from 'vitest';
import { parseSleep } from './helpers/internals.js';

describe('sleep N parsing', () => {
  it.each<[string, number]>([
    ['sleep 5', 5],
    ['sleep 2.5', 2.5],
    ['sleep .5', 0.5],
    ['sleep 3s', 3],
    ['sleep 1m', 60],
    ['sleep 1.5h', 5400],
    ['sleep 1d', 86400],
    ['sleep 1m 30s', 90],
    ['sleep 0', 0],
    ['/usr/bin/sleep 4', 4],
    ['  sleep   7  ', 7],
    ['"sleep" 5', 5],
    ['sleep 5 && tail -n 20 log.txt', 5],
    ['cd repo; sleep 2; sleep 3', 5],
    ['make build && sleep 10 && curl localhost', 10],
    ['(sleep 4) && ls', 4],
    ['sleep 1\nsleep 2', 3],
    ['python serve.py & sleep 3; curl x', 3],
    ['sleep 2 || true', 2],
    ['echo $(sleep 1)', 1],
    ['sleep 5  # wait for the server', 5],
    ['# sleep 9\nsleep 1', 1],
    ['echo a#b; sleep 2', 2],
  ])('reads %j as %d s', (command, seconds) => {
    expect(parseSleep(command)).toBe(seconds);
  });

  it.each([
    'ls -la',
    'pytest tests/test_sleep.py', // the word only appears inside another word
    'echo "a; sleep 5"', // quoted: one argument of echo
    "grep -r 'sleep 5' .",
    'timeout 5 sleep 9', // behind another word
    'for i in 1 2 3; do sleep 1; done', // a loop: the count is unknown
    'FOO=1 sleep 2',
    '`sleep 3`',
  ])('finds no sleep in %j', (command) => {
    expect(parseSleep(command)).toBeUndefined();
  });

  it.each([
    'sleep',
    'sleep $N',
    'sleep infinity',
    'sleep 1e3',
    'sleep -1',
    'sleep 5x',
    'sleep 2; sleep $WAIT', // one unreadable sleep spoils the line
    'echo "sleep 5', // unbalanced quote
    `sleep ${'9'.repeat(400)}`, // not a finite number of seconds
  ])('gives no evidence for the unreadable %j', (command) => {
    expect(parseSleep(command)).toBeUndefined();
  });
});
