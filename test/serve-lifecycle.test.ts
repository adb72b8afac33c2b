/**
 * How `tao serve` ends, on both transports: SIGTERM, SIGINT, SIGHUP or a `shutdown` request, whatever its
 * clients are doing. Every cell of the matrix ends with exit 0 within 2 s, no file left behind and nothing
 * but the listening line on stderr. Clients:
 * - idle: connected (stdio: stdin open), one request answered, then silent;
 * - busy: sent 20,000 requests (2,000 before a stdio `shutdown`) and reads no response, so the sidecar's
 *   output is congested;
 * - half-open: the same burst, then closed its sending side (stdin ended), still not reading.
 * Over stdio, `shutdown` is the client's own last line (the client then reads); over the socket it comes
 * from a second connection. Also: the socket path's length, the socket file's mode, and silence on
 * stderr when clients disconnect normally. Runs the compiled CLI: needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, exitWithin, SidecarProcess, socketSidecar, SocketClient } from './helpers/sidecar.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tao-life-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const EXIT_MS = 2000;
const hellos = (n: number): string => (JSON.stringify({ id: 0, op: 'hello' }) + '\n').repeat(n);
const BURST = hellos(20_000);
/**
 * Over stdio a `shutdown` is answered after every request before it: a burst still larger than the pipe
 * holds (~360 KB of responses), small enough that answering it is not what the 2 s measure.
 */
const BURST_BEFORE_SHUTDOWN = hellos(2_000);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

type Trigger = 'SIGTERM' | 'SIGINT' | 'SIGHUP' | 'shutdown';
type Client = 'idle' | 'busy' | 'half-open';
const TRIGGERS: Trigger[] = ['SIGTERM', 'SIGINT', 'SIGHUP', 'shutdown'];
const CLIENTS: Client[] = ['idle', 'busy', 'half-open'];

describe('tao serve over stdio: every way of ending exits 0 within 2 s', () => {
  for (const trigger of TRIGGERS) {
    for (const client of CLIENTS) {
      it(`${trigger}, ${client} client`, async () => {
        const s = new SidecarProcess();
        expect(await s.request({ id: 'h', op: 'hello' })).toMatchObject({ ok: true });
        if (client !== 'idle') {
          s.child.stdout.pause();
          s.write(trigger === 'shutdown' ? BURST_BEFORE_SHUTDOWN : BURST);
          if (trigger === 'shutdown') s.write(JSON.stringify({ id: 'bye', op: 'shutdown' }) + '\n');
          if (client === 'half-open') s.child.stdin.end();
          await sleep(300);
        }
        if (trigger === 'shutdown') {
          if (client === 'idle') s.write(JSON.stringify({ id: 'bye', op: 'shutdown' }) + '\n');
          s.child.stdout.resume();
        } else {
          s.child.kill(trigger);
        }
        expect(await exitWithin(s, EXIT_MS)).toBe(0);
        expect(s.stderr).toBe('');
      });
    }
  }
});

describe('tao serve --socket: every way of ending exits 0 within 2 s and removes the socket', () => {
  for (const trigger of TRIGGERS) {
    for (const client of CLIENTS) {
      it(`${trigger}, ${client} client`, async () => {
        const dir = tempDir();
        const path = join(dir, 'tao.sock');
        const s = await socketSidecar(path);
        const c = await SocketClient.connect(path);
        expect(await c.request({ id: 'h', op: 'hello' })).toMatchObject({ ok: true });
        if (client !== 'idle') {
          c.socket.pause();
          c.write(BURST);
          if (client === 'half-open') c.socket.end();
          await sleep(300);
        }
        if (trigger === 'shutdown') {
          const other = await SocketClient.connect(path);
          expect(await other.request({ id: 'bye', op: 'shutdown' })).toEqual({ id: 'bye', op: 'shutdown', ok: true });
        } else {
          s.child.kill(trigger);
        }
        expect(await exitWithin(s, EXIT_MS)).toBe(0);
        expect(existsSync(path)).toBe(false);
        expect(readdirSync(dir)).toEqual([]);
        expect(s.stderr).toBe(`tao serve: listening on ${path}\n`);
        c.socket.destroy();
      });
    }
  }
});

describe('tao serve --socket: the socket file', () => {
  it('refuses a path over the platform limit: exit 2, one line, nothing created', () => {
    const dir = tempDir();
    const path = join(dir, 'x'.repeat(120));
    const r = spawnSync(process.execPath, [CLI, 'serve', '--socket', path], {
      encoding: 'utf8',
      input: '',
      timeout: 10_000,
    });
    expect(r.status).toBe(2);
    const limit = process.platform === 'darwin' ? 103 : 107;
    expect(r.stderr).toBe(`tao serve: --socket must be at most ${limit} bytes (has ${Buffer.byteLength(path)})\n`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('is owner-only (mode 0600) whatever the umask', async () => {
    const path = join(tempDir(), 'tao.sock');
    const s = await socketSidecar(
      path,
      [],
      ['/bin/sh', '-c', 'umask 000; exec "$0" "$@"', process.execPath, CLI, 'serve'],
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    s.child.kill('SIGTERM');
    expect(await exitWithin(s, EXIT_MS)).toBe(0);
  });

  it('clients that disconnect, reset or stop reading leave nothing on stderr', async () => {
    const path = join(tempDir(), 'tao.sock');
    const s = await socketSidecar(path);
    // Closes after its answer.
    const polite = await SocketClient.connect(path);
    await polite.request({ id: 1, op: 'hello' });
    polite.socket.end();
    await polite.closed;
    // Vanishes while responses are still being written (EPIPE, ECONNRESET on the sidecar side).
    for (let k = 0; k < 3; k++) {
      const rude = await SocketClient.connect(path);
      rude.socket.pause();
      rude.write(BURST);
      await sleep(200);
      rude.socket.destroy();
      await rude.closed;
    }
    // Closes while its request is being answered.
    const hasty = await SocketClient.connect(path);
    hasty.write(BURST);
    hasty.socket.destroy();
    await sleep(300);
    const last = await SocketClient.connect(path);
    expect(await last.request({ id: 'bye', op: 'shutdown' })).toEqual({ id: 'bye', op: 'shutdown', ok: true });
    expect(await exitWithin(s, EXIT_MS)).toBe(0);
    expect(s.stderr).toBe(`tao serve: listening on ${path}\n`);
  });
});
