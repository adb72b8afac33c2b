/**
 * `tao serve`: the JSON-lines sidecar (protocol in docs/sidecar.md). Requests on stdin, responses on
 * stdout, diagnostics on stderr; or, with `--socket PATH`, the same protocol on every connection to a
 * local Unix socket. Exits 0 after `shutdown` or at the end of stdin; 2 for invalid usage.
 */
import { loadSolver } from '../solve/solver.js';
import { Dispatcher } from '../serve/dispatcher.js';
import { DEFAULT_MAX_LINE_BYTES, SIDECAR_OPS, SIDECAR_PROTOCOL_VERSION } from '../serve/protocol.js';
import { serveSocket, serveStream } from '../serve/transport.js';
import { intFlag, parseFlags } from './cli-args.js';
import { appendixHAdmission, appendixHCache } from './examples.js';

/** Largest line cap a caller may set: 1 GiB. */
const MAX_LINE_BYTES_LIMIT = 2 ** 30;

const HELP = `usage: tao serve [options]

A long-running solver sidecar speaking JSON lines (protocol ${SIDECAR_PROTOCOL_VERSION}): one request per line
on stdin, one response per line on stdout, diagnostics on stderr.
ops: ${SIDECAR_OPS.join(', ')}

options:
  --socket PATH          serve a local Unix socket at PATH instead of stdio (PATH must not exist)
  --max-line-bytes N     longest request line in bytes (default ${DEFAULT_MAX_LINE_BYTES}, at most ${MAX_LINE_BYTES_LIMIT})
  -h, --help             this help`;

function log(message: string): void {
  process.stderr.write(`tao serve: ${message}\n`);
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    socket: { type: 'string' },
    'max-line-bytes': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  const maxLineBytes =
    values['max-line-bytes'] === undefined
      ? DEFAULT_MAX_LINE_BYTES
      : intFlag('--max-line-bytes', values['max-line-bytes'], 1, MAX_LINE_BYTES_LIMIT);
  const solver = await loadSolver();
  try {
    // Two solves before the first request: a cold solve (JIT, first WASM calls) costs milliseconds.
    for (const e of [appendixHCache, appendixHAdmission]) solver.solve(e.problem, { quantum: e.quantum });
    const dispatcher = new Dispatcher(solver, { maxLineBytes, log });
    if (values.socket !== undefined) {
      const path = values.socket;
      // SIGINT/SIGTERM close the server like a `shutdown` request, so the socket file is removed.
      const interrupt = new AbortController();
      const onSignal = (): void => interrupt.abort();
      process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
      try {
        await serveSocket(path, dispatcher, { log, onListening: () => log(`listening on ${path}`), signal: interrupt.signal });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
        log(`cannot listen on ${path}: ${code}`);
        return 2;
      } finally {
        process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
      }
      return 0;
    }
    await serveStream(process.stdin, process.stdout, dispatcher);
    return 0;
  } finally {
    solver.close();
  }
}
