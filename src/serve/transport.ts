/**
 * Moving lines between a byte stream and the dispatcher: stdio, or each connection of a local Unix
 * socket. Requests are answered in order, one at a time. Reading waits while the output is congested
 * (a client that sends without reading gets backpressure, not a growing buffer), and a line is never
 * held beyond the cap (LineSplitter).
 */
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { Dispatcher } from './dispatcher.js';
import { LineSplitter, type Line } from './lines.js';

/** Why serving a stream ended. */
export type StreamEnd = 'eof' | 'shutdown' | 'output-closed';

/** Writes one response line; resolves once the output can take more (false if it closed). */
async function send(output: Writable, text: string): Promise<boolean> {
  if (output.destroyed || output.writableEnded) return false;
  if (output.write(text)) return true;
  const closed = new Promise<false>((resolve) => {
    output.once('close', () => resolve(false));
    output.once('error', () => resolve(false));
  });
  return Promise.race([once(output, 'drain').then(() => true), closed]);
}

/**
 * Serves `input` until its end, a `shutdown` request, or the output going away (a client that closed its
 * end). `stop` ends serving between lines (another connection's shutdown).
 */
export async function serveStream(
  input: Readable,
  output: Writable,
  dispatcher: Dispatcher,
  stop: { stopped: boolean } = { stopped: false },
): Promise<StreamEnd> {
  const splitter = new LineSplitter(dispatcher.maxLineBytes);
  // Pending write errors (EPIPE: the client closed its end) surface as 'error' events: mark, never throw.
  let outputGone = false;
  const onError = (): void => {
    outputGone = true;
  };
  output.on('error', onError);
  const answer = async (line: Line): Promise<StreamEnd | undefined> => {
    // Blank lines (e.g. a keep-alive newline) are not requests.
    if (line.kind === 'line' && line.text.trim() === '') return undefined;
    const reply = dispatcher.handle(line);
    if (reply.response === undefined) return undefined; // a notification: no response line
    if (!(await send(output, JSON.stringify(reply.response) + '\n')) || outputGone) return 'output-closed';
    return reply.shutdown ? 'shutdown' : undefined;
  };
  try {
    for await (const chunk of input) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      for (const line of splitter.push(bytes)) {
        const end = await answer(line);
        if (end !== undefined) return end;
        if (stop.stopped) return 'shutdown';
      }
      if (outputGone) return 'output-closed';
    }
    const last = splitter.end();
    if (last !== undefined) {
      const end = await answer(last);
      if (end !== undefined) return end;
    }
    return 'eof';
  } finally {
    output.off('error', onError);
  }
}

/**
 * Serves every connection to a Unix socket at `path` until one sends `shutdown` (answered, then the
 * server closes and the other connections end after their current line) or `signal` aborts. Resolves
 * when the server is closed (which removes the socket file). `log` receives connection errors;
 * `onListening` runs once the socket accepts connections.
 */
export async function serveSocket(
  path: string,
  dispatcher: Dispatcher,
  options: { log: (message: string) => void; onListening: () => void; signal?: AbortSignal },
): Promise<void> {
  const { log, onListening, signal } = options;
  const stop = { stopped: false };
  const sockets = new Set<Socket>();
  let server: Server;
  const done = new Promise<void>((resolve, reject) => {
    const close = (except?: Socket): void => {
      if (stop.stopped) return;
      stop.stopped = true;
      server.close(() => resolve());
      for (const s of sockets) if (s !== except) s.end();
    };
    signal?.addEventListener('abort', () => close(), { once: true });
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      // A connection reset by its client ends that connection only; the server keeps serving the others.
      socket.on('error', (err: NodeJS.ErrnoException) => {
        // ABORT_ERR is the sidecar's own doing: it stopped reading a connection whose client went away.
        if (err.code !== 'ABORT_ERR') log(`connection error: ${err.message}`);
      });
      serveStream(socket, socket, dispatcher, stop).then(
        (end) => {
          socket.end();
          if (end === 'shutdown') close(socket);
        },
        // The connection failed while being read (reset by its client): drop it, keep serving the others.
        (err: unknown) => {
          log(`connection dropped: ${err instanceof Error ? err.message : String(err)}`);
          socket.destroy();
        },
      );
    });
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      onListening();
    });
  });
  return done;
}
