/**
 * Reads the `sleep N` in a shell command line: evidence of a tool call's duration (paper: third in trust,
 * after "returned" and an exposed deadline or progress).
 *
 * Rules:
 * - The line is split into simple commands at `;`, `&&`, `||`, `|`, `&`, newlines and parentheses outside
 *   quotes. Quotes and backslashes are removed as the shell does (`"sleep" 5` is a sleep), and what they
 *   enclose stays inside one word (`echo "a; sleep 5"` holds no sleep). A `#` starting a word comments
 *   out the rest of the line. Nothing is expanded: `sleep $N` and backquotes are not readable.
 * - A simple command counts when its first word is `sleep` (or `/bin/sleep`, `/usr/bin/sleep`). Its
 *   operands follow GNU sleep: one or more `NUMBER[SUFFIX]`, suffix `s`, `m`, `h` or `d`, summed
 *   (`sleep 1m 30s` = 90 s). NUMBER is a non-negative decimal (`5`, `2.5`, `.5`).
 * - The sleeps of a line are **summed**: in `;` / `&&` chains, the usual agent pattern (`sleep 5 && tail
 *   log`), they run one after the other. For the rarer parallel forms (`&`, `|`) the sum over-estimates;
 *   since the rest of the line also takes time, a sum is still the closer estimate more often than a max.
 * - A `sleep` whose operands cannot all be read (`sleep $N`, `sleep infinity`, `sleep` alone) makes the
 *   whole line give no evidence: a partial sum would under-state the wait with false confidence.
 * - A sleep behind another word (`timeout 5 sleep 9`, `do sleep 1` in a loop, `FOO=1 sleep 2`) is not
 *   recognised: its effect on the duration is unknown, so the line falls through to history.
 *
 * Returns the total seconds, or `undefined` when the line holds no readable sleep.
 */

const UNIT_SECONDS: Readonly<Record<string, number>> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };
const OPERAND = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/;
const SLEEP_WORDS: ReadonlySet<string> = new Set(['sleep', '/bin/sleep', '/usr/bin/sleep']);
/** Characters with no meaning to the reader below: everything but quotes, `\\`, `#`, blanks and separators. */
const ORDINARY_RUN = /[^'"\\# \t;&|\n()]+/y;
/** The characters that can join the letters of `sleep` across quotes or an escape. */
const QUOTING = /['"\\]/;

/**
 * Seconds of one simple command's words: `undefined` if it is not a sleep, NaN if it is an unreadable one.
 */
function sleepSeconds(words: readonly string[]): number | undefined {
  const first = words[0];
  if (first === undefined || !SLEEP_WORDS.has(first)) return undefined;
  if (words.length < 2) return Number.NaN;
  let total = 0;
  for (let i = 1; i < words.length; i++) {
    const m = OPERAND.exec(words[i]!);
    if (m === null) return Number.NaN;
    total += Number(m[1]) * UNIT_SECONDS[m[2]!]!;
  }
  return total;
}

/** The total `sleep` seconds of a command line, or `undefined` if it has none or an unreadable one. */
export function parseSleep(command: string): number | undefined {
  // Fast path: most commands hold no "sleep" at all. A quote or backslash may spell one (`sl"ee"p 5`).
  if (!command.includes('sleep') && !QUOTING.test(command)) return undefined;
  let total = 0;
  let found = false;
  let unreadable = false;
  let words: string[] = [];
  let word = '';
  let inWord = false;

  const endWord = (): void => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    const s = sleepSeconds(words);
    words = [];
    if (s === undefined) return;
    if (Number.isNaN(s)) unreadable = true;
    found = true;
    total += s;
  };

  let i = 0;
  const n = command.length;
  while (i < n) {
    const c = command[i]!;
    if (c === "'") {
      const close = command.indexOf("'", i + 1);
      if (close < 0) return undefined; // unbalanced quote: the line is not readable
      word += command.slice(i + 1, close);
      inWord = true;
      i = close + 1;
    } else if (c === '"') {
      let j = i + 1;
      while (j < n && command[j] !== '"') j += command[j] === '\\' ? 2 : 1;
      if (j >= n) return undefined;
      word += command.slice(i + 1, j);
      inWord = true;
      i = j + 1;
    } else if (c === '\\') {
      word += command[i + 1] ?? '';
      inWord = true;
      i += 2;
    } else if (c === '#' && !inWord) {
      // A comment runs to the end of the line (`sleep 5  # wait for the server`).
      const eol = command.indexOf('\n', i);
      i = eol < 0 ? n : eol;
    } else if (c === ' ' || c === '\t') {
      endWord();
      i++;
    } else if (c === ';' || c === '&' || c === '|' || c === '\n' || c === '(' || c === ')') {
      endCommand();
      i++;
    } else {
      // A run of ordinary characters joins the word in one slice (a '#' inside a word is taken alone).
      ORDINARY_RUN.lastIndex = i;
      const run = ORDINARY_RUN.exec(command);
      const end = run === null ? i + 1 : i + run[0].length;
      word += command.slice(i, end);
      inWord = true;
      i = end;
    }
  }
  endCommand();
  // A number too large for a double would give an infinite wait: not a readable duration either.
  return found && !unreadable && Number.isFinite(total) ? total : undefined;
}
