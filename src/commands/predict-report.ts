/**
 * `tao predict-report <calls.jsonl> [--json]`: replays completed tool calls (one JSON object per line:
 * name, startedAt, returnedAt, optional command, deadline, session) through a fresh readiness predictor
 * and prints its accuracy as a table, or as JSON with `--json`.
 */
import { readFile } from 'node:fs/promises';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { predictReport, type ErrorSummary, type PredictReport } from '../evaluate/readiness/report.js';
import { checkCompletedCall, type CompletedToolCall } from '../evaluate/readiness/predictor.js';
import { parseFlags } from './cli-args.js';

const USAGE = `usage: tao predict-report <calls.jsonl> [--json]

Replays completed tool calls through a fresh readiness predictor, in time order, and reports the error of
the duration predicted at each call's start (MAE, share within 0.5 s, per evidence source) and the
confusion matrix of the ready decision at each tick while a call runs.

Each line of <calls.jsonl> is a JSON object:
  {"name": "bash", "startedAt": 12.0, "returnedAt": 14.5, "command": "sleep 2 && ls", "deadline": 20}
(command, deadline and session are optional; times in seconds)

options:
  --json     print the report as JSON
  --help     this text`;

/** Parses JSONL text; errors name the file and line. */
export function parseCalls(text: string, file: string): CompletedToolCall[] {
  const calls: CompletedToolCall[] = [];
  const lines = text.split('\n');
  for (let n = 1; n <= lines.length; n++) {
    const line = lines[n - 1]!.trim();
    if (line.length === 0) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch (err) {
      throw new InvalidValueError(`${file} line ${n} is not valid JSON (${(err as Error).message})`);
    }
    try {
      checkCompletedCall(record, `calls[${calls.length}]`, true);
    } catch (err) {
      // Same class and rule, plus where the record is in the file.
      if (err instanceof InvalidTypeError) throw new InvalidTypeError(`${err.message} (${file} line ${n})`);
      if (err instanceof InvalidValueError) throw new InvalidValueError(`${err.message} (${file} line ${n})`);
      throw err;
    }
    calls.push(record);
  }
  return calls;
}

function seconds(x: number | null): string {
  return x === null ? '-' : `${x.toFixed(3)} s`;
}

function percent(x: number | null): string {
  return x === null ? '-' : `${(100 * x).toFixed(1)}%`;
}

function ratio(num: number, den: number): string {
  return den === 0 ? '-' : percent(num / den);
}

/** The report as a plain-text table. */
export function formatReport(r: PredictReport): string {
  const lines: string[] = [];
  lines.push(`calls          ${r.count}`);
  lines.push(`MAE            ${seconds(r.meanAbsoluteError)}`);
  lines.push(`within 0.5 s   ${percent(r.withinHalfSecond)}`);
  lines.push('');
  lines.push(`${'source'.padEnd(16)}${'calls'.padStart(8)}${'MAE'.padStart(12)}${'within 0.5 s'.padStart(14)}`);
  for (const [source, s] of Object.entries(r.sources) as [string, ErrorSummary][]) {
    lines.push(
      `${source.padEnd(16)}${String(s.count).padStart(8)}${seconds(s.meanAbsoluteError).padStart(12)}` +
        `${percent(s.withinHalfSecond).padStart(14)}`,
    );
  }
  const c = r.confusion;
  lines.push('');
  lines.push(`ready decisions: ${r.ticks} (every ${r.tick} s while a call runs; horizon ${r.predictor.horizon} s)`);
  lines.push(`${''.padEnd(12)}${'returned within H'.padStart(20)}${'not returned'.padStart(14)}`);
  lines.push(`${'ready'.padEnd(12)}${String(c.truePositive).padStart(20)}${String(c.falsePositive).padStart(14)}`);
  lines.push(`${'not ready'.padEnd(12)}${String(c.falseNegative).padStart(20)}${String(c.trueNegative).padStart(14)}`);
  const accurate = c.truePositive + c.trueNegative;
  lines.push(
    `precision ${ratio(c.truePositive, c.truePositive + c.falsePositive)}, ` +
      `recall ${ratio(c.truePositive, c.truePositive + c.falseNegative)}, accuracy ${ratio(accurate, r.ticks)}`,
  );
  return lines.join('\n');
}

const FLAGS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function run(args: string[]): Promise<number> {
  let json: boolean;
  let files: string[];
  try {
    const parsed = parseFlags(args, FLAGS, true);
    if (parsed.values.help === true) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    json = parsed.values.json === true;
    files = parsed.positionals;
  } catch (err) {
    if (!(err instanceof InvalidTypeError || err instanceof InvalidValueError)) throw err;
    process.stderr.write(`tao predict-report: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  const file = files[0];
  if (file === undefined || files.length > 1) {
    process.stderr.write(`tao predict-report: expected one <calls.jsonl>\n${USAGE}\n`);
    return 2;
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    process.stderr.write(`tao predict-report: cannot read ${file}: ${(err as Error).message}\n`);
    return 2;
  }
  const report = predictReport(parseCalls(text, file));
  process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
  return 0;
}
