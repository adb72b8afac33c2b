/**
 * Moving lines between a byte stream and the dispatcher: stdio, or each connection of a local Unix
 * socket. Requests are answered in order, one at a time. Input is read ahead into a bounded queue while
 * responses wait for the output (so a client may send several requests before reading any response),
 * and reading pauses once the queue is full (a client that sends without reading gets backpressure, not
 * a growing buffer). A line is never held beyond the cap (LineSplitter), and the bytes held across all
 * connections of a server share one budget.
 */
import { chmodSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { InvalidValueError } from '../errors.js';
import type { Dispatcher } from './dispatcher.js';
import type { ErrorResponse } from './protocol.js';
import { ConnectionState } from './delta.js';
import { LineSplitter, type Line } from './lines.js';

/** Why serving a stream ended. */
export type StreamEnd = 'eof' | 'shutdown' | 'output-closed' | 'over-budget';

/** How long a stopping server lets its connections flush their last responses before closing them. */
export const SHUTDOWN_GRACE_MS = 500;

/**
 * The bytes of client input held in memory (partial lines and read-ahead lines not yet answered), summed
 * over the connections that share it, and their cap.
 */
export class InputBudget {
  held = 0;
  constructor(readonly maxBytes: number) {}
}

export interface StreamOptions {
  /** Ends serving after the line in progress (a signal, another connection's `shutdown`). */
  signal?: AbortSignal;
  /** Shared with the other connections of a server; without, the stream is bounded by its own caps. */
  budget?: InputBudget;
  /** Bytes of complete request lines read ahead of their answers before reading pauses. */
  maxQueuedBytes?: number;
  /** Microseconds to keep polling for the next request after answering (see MAX_BUSY_POLL_MICROS); 0: sleep at once. */
  busyPollMicros?: number;
}

/**
 * After its last response, a stream may keep the event loop polling (each turn a non-blocking poll of
 * every handle, via setImmediate) for a while before it lets the process sleep: a request arriving then is
 * read without the process waking up, which on a virtual machine costs tens to hundreds of microseconds.
 * It costs that much CPU time per response, spent whether or not a request comes.
 */
export const MAX_BUSY_POLL_MICROS = 100_000;

/** The UTF-8 byte order mark as a decoded character: ignored at the start of a stream. */
const BOM = '\uFEFF';
const BOM_BYTES = Buffer.byteLength(BOM);

/** The response line refusing a connection's input (id null: it answers no request in particular). */
function refusal(message: string): string {
  const response: ErrorResponse = {
    id: null,
    op: null,
    ok: false,
    error: { code: new InvalidValueError(message).code, message },
  };
  return JSON.stringify(response) + '\n';
}

/** Bytes a queued line holds (an oversized one holds none). */
function lineBytes(line: Line): number {
  return line.kind === 'line' ? (line.bytes ?? Buffer.byteLength(line.text)) : 0;
}

/**
 * Serves `input` until its end, a `shutdown` request, the output going away (a client that closed its
 * end), `signal` (after the line in progress), or the input budget being exceeded (answered with one
 * error line, then the stream ends unread).
 */
export function serveStream(
  input: Readable,
  output: Writable,
  dispatcher: Dispatcher,
  options: StreamOptions = {},
): Promise<StreamEnd> {
  const { signal } = options;
  const maxQueued = options.maxQueuedBytes ?? dispatcher.maxLineBytes;
  const budget = options.budget ?? new InputBudget(Number.POSITIVE_INFINITY);
  const splitter = new LineSplitter(dispatcher.maxLineBytes);
  const connection = new ConnectionState();
  const busyPollMs = (options.busyPollMicros ?? 0) / 1000;
  /** Until when (performance.now()) the loop is kept polling; a turn past it lets the process sleep. */
  let pollUntil = 0;
  let polling = false;
  const queue: (Line | undefined)[] = [];
  let head = 0;
  let queuedBytes = 0;
  /** What this stream counts against the budget now. */
  let held = 0;
  let first = true;
  let inputEnded = false;
  let paused = false;
  let pumping = false;
  let finished = false;
  /** Wakes the pump waiting for the output to drain (or for the stream to finish). */
  let wake: (() => void) | undefined;

  return new Promise<StreamEnd>((resolve) => {
    const finish = (end: StreamEnd): void => {
      if (finished) return;
      finished = true;
      input.off('data', onData).off('end', onEnd).off('error', onInputError);
      output.off('drain', onDrain).off('error', onOutputGone).off('close', onOutputGone);
      signal?.removeEventListener('abort', onAbort);
      budget.held -= held;
      held = 0;
      queue.length = 0;
      wake?.();
      resolve(end);
    };
    const account = (): void => {
      const now = queuedBytes + splitter.pendingBytes;
      budget.held += now - held;
      held = now;
    };
    const enqueue = (line: Line): void => {
      if (first) {
        first = false;
        // The mark's bytes (EF BB BF) count toward no nesting.
        if (line.kind === 'line' && line.text.startsWith(BOM))
          line = { ...line, text: line.text.slice(BOM.length), bytes: lineBytes(line) - BOM_BYTES };
      }
      queue.push(line);
      queuedBytes += lineBytes(line);
    };
    const onData = (chunk: Buffer | string): void => {
      for (const line of splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) enqueue(line);
      account();
      if (budget.held > budget.maxBytes) {
        const message = `the sidecar holds more than ${budget.maxBytes} bytes of unanswered input across its connections: this connection is closed`;
        output.write(refusal(message));
        finish('over-budget');
        return;
      }
      if (queuedBytes >= maxQueued && !paused) {
        paused = true;
        input.pause();
      }
      void pump();
    };
    const onEnd = (): void => {
      const last = splitter.end();
      if (last !== undefined) enqueue(last);
      inputEnded = true;
      account();
      void pump();
    };
    // A reset connection ends like a closed one; the sidecar keeps serving the others.
    const onInputError = (): void => finish('output-closed');
    const onOutputGone = (): void => finish('output-closed');
    const onDrain = (): void => {
      const w = wake;
      wake = undefined;
      w?.();
    };
    // The dispatcher answers synchronously: when this runs, no line is half answered. A response waiting
    // for the output to drain has been written; flushing it is the caller's grace period.
    const onAbort = (): void => finish('shutdown');

    const pump = async (): Promise<void> => {
      if (pumping) return;
      pumping = true;
      try {
        while (!finished && head < queue.length) {
          if (signal?.aborted === true) return finish('shutdown');
          const line = queue[head]!;
          queue[head++] = undefined;
          if (head > 1024 && 2 * head > queue.length) {
            queue.splice(0, head);
            head = 0;
          }
          queuedBytes -= lineBytes(line);
          account();
          if (paused && queuedBytes < maxQueued) {
            paused = false;
            input.resume();
          }
          // Blank lines (e.g. a keep-alive newline) are not requests.
          if (line.kind === 'line' && line.text.trim() === '') continue;
          const reply = dispatcher.handle(line, connection);
          if (reply.response === undefined) continue; // a notification: no response line
          if (output.destroyed || output.writableEnded) return finish('output-closed');
          if (!output.write(JSON.stringify(reply.response) + '\n')) {
            await new Promise<void>((r) => (wake = r));
            if (finished) return;
          }
          if (reply.shutdown) return finish('shutdown');
        }
        if (signal?.aborted === true) return finish('shutdown');
        if (inputEnded && head >= queue.length) finish('eof');
      } finally {
        pumping = false;
      }
      if (busyPollMs > 0 && !finished) {
        pollUntil = performance.now() + busyPollMs;
        if (!polling) {
          polling = true;
          setImmediate(poll);
        }
      }
    };
    /** One turn of the busy poll: the loop polls its handles between two immediates without blocking. */
    const poll = (): void => {
      if (!finished && !inputEnded && performance.now() < pollUntil) setImmediate(poll);
      else polling = false;
    };

    if (signal?.aborted === true) return finish('shutdown');
    input.on('data', onData).on('end', onEnd).on('error', onInputError);
    output.on('drain', onDrain).on('error', onOutputGone).on('close', onOutputGone);
    signal?.addEventListener('abort', onAbort);
  });
}

/** Errors of a connection that are the client's normal way of leaving: not logged. */
const DISCONNECTS = new Set(['ECONNRESET', 'EPIPE', 'ABORT_ERR', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

export interface SocketOptions {
  log: (message: string) => void;
  onListening: () => void;
  signal?: AbortSignal;
  /** Connections served at once; one more is answered with an error line and closed. */
  maxConnections: number;
  /** Bytes of unanswered input held across all connections (see InputBudget). */
  maxBufferedBytes: number;
  /** Each connection's busy poll after a response (StreamOptions.busyPollMicros). */
  busyPollMicros?: number;
}

/**
 * Serves every connection to a Unix socket at `path` until one sends `shutdown` (answered) or `signal`
 * aborts. Then every connection ends after its line in progress, gets SHUTDOWN_GRACE_MS to flush its
 * responses and is closed; the server closes (which removes the socket file) and this resolves. The socket
 * file is created owner-only (mode 0600). `log` receives connection errors other than disconnects;
 * `onListening` runs once the socket accepts connections.
 */
export async function serveSocket(path: string, dispatcher: Dispatcher, options: SocketOptions): Promise<void> {
  const { log, onListening, signal } = options;
  const stopping = new AbortController();
  const budget = new InputBudget(options.maxBufferedBytes);
  const sockets = new Set<Socket>();
  let server: Server;
  return new Promise<void>((resolve, reject) => {
    let listening = false;
    const close = (): void => {
      if (stopping.signal.aborted) return;
      stopping.abort();
      server.close(() => resolve());
      for (const s of sockets) endSoon(s);
    };
    /** Ends a connection, and closes it for good once the grace period is over. */
    const endSoon = (s: Socket): void => {
      s.end();
      setTimeout(() => s.destroy(), SHUTDOWN_GRACE_MS).unref();
    };
    signal?.addEventListener('abort', close, { once: true });
    server = createServer({ allowHalfOpen: true }, (socket) => {
      socket.on('error', (err: NodeJS.ErrnoException) => {
        if (!DISCONNECTS.has(err.code ?? '')) log(`connection error: ${err.message}`);
      });
      if (stopping.signal.aborted) {
        socket.destroy();
        return;
      }
      if (sockets.size >= options.maxConnections) {
        socket.end(refusal(`too many connections (at most ${options.maxConnections})`));
        setTimeout(() => socket.destroy(), SHUTDOWN_GRACE_MS).unref();
        return;
      }
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      void serveStream(socket, socket, dispatcher, {
        signal: stopping.signal,
        budget,
        busyPollMicros: options.busyPollMicros ?? 0,
      }).then((end) => {
        if (end === 'shutdown' && !stopping.signal.aborted) close();
        else endSoon(socket);
      });
    });
    server.once('error', (err) => {
      if (!listening) reject(err);
    });
    // Owner-only from the moment it exists: the mode comes from the umask at bind time.
    const umask = process.umask(0o177);
    try {
      server.listen(path, () => {
        listening = true;
        try {
          chmodSync(path, 0o600);
        } catch {
          // Already 0600 from the umask; chmod only guards a platform that ignores it.
        }
        onListening();
        if (signal?.aborted === true) close();
      });
    } finally {
      process.umask(umask);
    }
  });
}
