/**
 * Drives the compiled sidecar (`node dist/cli.js serve`) from the test process over pipes: writes
 * request lines, reads response lines, and collects stderr and the exit code.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export type Json = Record<string, unknown>;

export class SidecarProcess {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = '';
  readonly #lines: string[] = [];
  #waiting: ((line: string | undefined) => void) | undefined;
  #partial = '';
  #ended = false;
  readonly exited: Promise<number | null>;

  constructor(args: string[] = [], command: string[] = [process.execPath, CLI, 'serve']) {
    expect(existsSync(CLI), `${CLI} is missing: run \`npm run build\``).toBe(true);
    this.child = spawn(command[0]!, [...command.slice(1), ...args], { stdio: 'pipe' });
    this.child.stderr.setEncoding('utf8').on('data', (t: string) => (this.stderr += t));
    this.child.stdout.setEncoding('utf8').on('data', (t: string) => {
      const parts = (this.#partial + t).split('\n');
      this.#partial = parts.pop()!;
      for (const p of parts) this.#push(p);
    });
    this.child.stdout.on('end', () => {
      this.#ended = true;
      if (this.#partial !== '') this.#push(this.#partial);
      this.#waiting?.(undefined);
    });
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  #push(line: string): void {
    const w = this.#waiting;
    if (w !== undefined) {
      this.#waiting = undefined;
      w(line);
    } else this.#lines.push(line);
  }

  /** Writes raw text (one or more lines, or a part of one). */
  write(text: string): void {
    this.child.stdin.write(text);
  }

  /** The next stdout line, or undefined once stdout has ended. */
  nextLine(): Promise<string | undefined> {
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.#ended) return Promise.resolve(undefined);
    return new Promise((resolve) => (this.#waiting = resolve));
  }

  /** The next response, parsed; fails the test if stdout ended or the line is not JSON. */
  async next(): Promise<Json> {
    const line = await this.nextLine();
    expect(line, `sidecar stdout ended; stderr: ${this.stderr}`).toBeDefined();
    return JSON.parse(line!) as Json;
  }

  /** Sends one request object and returns its response, checking the id is echoed. */
  async request(request: Json): Promise<Json> {
    this.write(JSON.stringify(request) + '\n');
    const response = await this.next();
    expect(response.id).toEqual(request.id);
    return response;
  }

  /** Sends `shutdown`, expects its ok response, end of stdout and exit code 0. */
  async shutdown(id: string | number = 'bye'): Promise<void> {
    expect(await this.request({ id, op: 'shutdown' })).toEqual({ id, op: 'shutdown', ok: true });
    expect(await this.nextLine()).toBeUndefined();
    expect(await this.exited).toBe(0);
  }
}

/** A sidecar serving a Unix socket at `path`, once it listens (its stderr says so). */
export async function socketSidecar(path: string, args: string[] = [], command?: string[]): Promise<SidecarProcess> {
  const s = new SidecarProcess(['--socket', path, ...args], command);
  const code = await Promise.race([
    (async () => {
      while (!s.stderr.includes('listening')) await new Promise((r) => setTimeout(r, 20));
      return undefined;
    })(),
    s.exited,
  ]);
  expect(code, `sidecar exited before listening; stderr: ${s.stderr}`).toBeUndefined();
  return s;
}

/** A client connection to a socket sidecar: writes lines, reads response lines. */
export class SocketClient {
  readonly socket: Socket;
  readonly #lines: string[] = [];
  #partial = '';
  #waiting: ((line: string | undefined) => void) | undefined;
  #ended = false;
  /** Resolves when the connection has closed (either side). */
  readonly closed: Promise<void>;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setEncoding('utf8');
    socket.on('data', (t: string) => {
      const parts = (this.#partial + t).split('\n');
      this.#partial = parts.pop()!;
      for (const p of parts) this.#push(p);
    });
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
    socket.on('end', () => {
      this.#ended = true;
      this.#waiting?.(undefined);
    });
  }

  static async connect(path: string): Promise<SocketClient> {
    const socket = connect(path);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new SocketClient(socket);
  }

  #push(line: string): void {
    const w = this.#waiting;
    if (w !== undefined) {
      this.#waiting = undefined;
      w(line);
    } else this.#lines.push(line);
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** The next response line, or undefined once the sidecar has ended the connection. */
  nextLine(): Promise<string | undefined> {
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.#ended) return Promise.resolve(undefined);
    return new Promise((resolve) => (this.#waiting = resolve));
  }

  async request(request: Json): Promise<Json> {
    this.write(JSON.stringify(request) + '\n');
    const line = await this.nextLine();
    expect(line, 'connection ended before a response').toBeDefined();
    return JSON.parse(line!) as Json;
  }
}

/** Resolves with the exit code, or rejects when the process has not exited within `ms`. */
export function exitWithin(s: SidecarProcess, ms: number): Promise<number | null> {
  return Promise.race([
    s.exited,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`sidecar still running after ${ms} ms; stderr: ${s.stderr}`)), ms),
    ),
  ]);
}
