/**
 * `tao serve`: the JSON-lines sidecar (protocol in docs/sidecar.md). Requests on stdin, responses on
 * stdout, diagnostics on stderr; or, with `--socket PATH`, the same protocol on every connection to a
 * local Unix socket. Exits 0 after `shutdown`, at the end of stdin, or on SIGTERM, SIGINT or SIGHUP (the
 * line in progress is answered first, and the socket file removed); 2 for invalid usage.
 */
import { InvalidValueError } from '../errors.js';
import { loadSolver } from '../solve/solver.js';
import { Dispatcher } from '../serve/dispatcher.js';
import { DEFAULT_MAX_LINE_BYTES, SIDECAR_OPS, SIDECAR_PROTOCOL_VERSION } from '../serve/protocol.js';
import { MAX_BUSY_POLL_MICROS, serveSocket, serveStream, SHUTDOWN_GRACE_MS } from '../serve/transport.js';
import { intFlag, parseFlags } from './cli-args.js';
import { appendixHAdmission, appendixHCache } from './examples.js';

/** Largest line cap a caller may set: 1 GiB. */
const MAX_LINE_BYTES_LIMIT = 2 ** 30;
/** Connections a socket sidecar serves at once unless `--max-connections` says otherwise. */
const DEFAULT_MAX_CONNECTIONS = 16;
const MAX_CONNECTIONS_LIMIT = 1024;
/** The default cap on unanswered input held across connections, in line caps. */
const BUFFERED_LINES = 4;
/** Longest socket path the platform binds (`sun_path` less its terminating NUL). */
const MAX_SOCKET_PATH_BYTES = process.platform === 'darwin' ? 103 : 107;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

const HELP = `usage: tao serve [options]

A long-running solver sidecar speaking JSON lines (protocol ${SIDECAR_PROTOCOL_VERSION}): one request per line
on stdin, one response per line on stdout, diagnostics on stderr.
ops: ${SIDECAR_OPS.join(', ')}

options:
  --socket PATH              serve a local Unix socket at PATH instead of stdio (PATH must not exist,
                             at most ${MAX_SOCKET_PATH_BYTES} bytes; the socket is created owner-only)
  --max-line-bytes N         longest request line in bytes (default ${DEFAULT_MAX_LINE_BYTES}, at most ${MAX_LINE_BYTES_LIMIT})
  --max-connections N        socket connections served at once (default ${DEFAULT_MAX_CONNECTIONS}, at most ${MAX_CONNECTIONS_LIMIT})
  --max-buffered-bytes N     unanswered input held across socket connections (default ${BUFFERED_LINES} x the line cap,
                             at least the line cap)
  --busy-poll-us N           after each response keep polling for the next request for N microseconds
                             before sleeping (default 0, at most ${MAX_BUSY_POLL_MICROS}): a request sent
                             within them skips the wake-up, at the cost of N us of CPU per response
  -h, --help                 this help

SIGTERM, SIGINT and SIGHUP end it like a shutdown request: exit 0.`;

function log(message: string): void {
  process.stderr.write(`tao serve: ${message}\n`);
}

/** Resolves once `stream` has flushed what it holds, or after `ms`. */
function flushed(stream: NodeJS.WritableStream & { writableLength: number }, ms: number): Promise<void> {
  if (stream.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    stream.once('drain', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    socket: { type: 'string' },
    'max-line-bytes': { type: 'string' },
    'max-connections': { type: 'string' },
    'max-buffered-bytes': { type: 'string' },
    'busy-poll-us': { type: 'string' },
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
  const maxConnections =
    values['max-connections'] === undefined
      ? DEFAULT_MAX_CONNECTIONS
      : intFlag('--max-connections', values['max-connections'], 1, MAX_CONNECTIONS_LIMIT);
  const maxBufferedBytes =
    values['max-buffered-bytes'] === undefined
      ? BUFFERED_LINES * maxLineBytes
      : intFlag(
          '--max-buffered-bytes',
          values['max-buffered-bytes'],
          maxLineBytes,
          BUFFERED_LINES * MAX_LINE_BYTES_LIMIT,
        );
  const busyPollMicros =
    values['busy-poll-us'] === undefined
      ? 0
      : intFlag('--busy-poll-us', values['busy-poll-us'], 0, MAX_BUSY_POLL_MICROS);
  const path = values.socket;
  if (path !== undefined && Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    throw new InvalidValueError(
      `--socket must be at most ${MAX_SOCKET_PATH_BYTES} bytes (has ${Buffer.byteLength(path)})`,
    );
  }
  // A signal ends serving like a `shutdown` request, so that the socket file is removed and exit is 0.
  const interrupt = new AbortController();
  const onSignal = (): void => interrupt.abort();
  for (const s of SIGNALS) process.on(s, onSignal);
  const solver = await loadSolver();
  try {
    // Two solves before the first request: a cold solve (JIT, first WASM calls) costs milliseconds.
    for (const e of [appendixHCache, appendixHAdmission]) solver.solve(e.problem, { quantum: e.quantum });
    const dispatcher = new Dispatcher(solver, { maxLineBytes, log });
    if (path !== undefined) {
      try {
        await serveSocket(path, dispatcher, {
          log,
          onListening: () => log(`listening on ${path}`),
          signal: interrupt.signal,
          maxConnections,
          maxBufferedBytes,
          busyPollMicros,
        });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
        log(`cannot listen on ${path}: ${code}`);
        return 2;
      }
      return 0;
    }
    await serveStream(process.stdin, process.stdout, dispatcher, { signal: interrupt.signal, busyPollMicros });
    process.stdin.destroy();
    // Responses a client does not read must not keep the process alive past the grace period.
    await flushed(process.stdout, SHUTDOWN_GRACE_MS);
    if (process.stdout.writableLength > 0) process.exit(0);
    return 0;
  } finally {
    for (const s of SIGNALS) process.off(s, onSignal);
    solver.close();
  }
}
