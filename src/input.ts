/**
 * Bounded reading of text input (a file, or stdin): at most MAX_INPUT_BYTES are read, so a huge or endless
 * input (`/dev/zero`) fails fast in bounded memory. A leading UTF-8 byte order mark is dropped. Failures
 * are InvalidValueErrors naming the source (`cannot read x.json: ENOENT`, `stdin is larger than ... bytes`).
 */
import { open, stat } from 'node:fs/promises';
import { InvalidValueError } from './errors.js';
import { MAX_INPUT_BYTES } from './limits.js';

const BOM = '\uFEFF';

function decode(chunks: readonly Buffer[]): string {
  const text = Buffer.concat(chunks).toString('utf8');
  return text.startsWith(BOM) ? text.slice(1) : text;
}

function tooLarge(source: string, limit: number): InvalidValueError {
  return new InvalidValueError(`${source} is larger than ${limit} bytes`);
}

function cannotRead(source: string, err: unknown): InvalidValueError {
  const code = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
  return new InvalidValueError(`cannot read ${source}: ${code}`);
}

/** The text of `file`, at most `limit` bytes (default MAX_INPUT_BYTES). Devices and pipes are read up to the limit too. */
export async function readTextFile(file: string, limit = MAX_INPUT_BYTES): Promise<string> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(file);
  } catch (err) {
    throw cannotRead(file, err);
  }
  if (info.isDirectory()) throw new InvalidValueError(`cannot read ${file}: it is a directory`);
  if (info.isFile() && info.size > limit) throw tooLarge(file, limit);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    throw cannotRead(file, err);
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(2 ** 20, limit + 1 - total));
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > limit) throw tooLarge(file, limit);
      chunks.push(buf.subarray(0, bytesRead));
    }
    return decode(chunks);
  } catch (err) {
    if (err instanceof InvalidValueError) throw err;
    throw cannotRead(file, err);
  } finally {
    await handle.close();
  }
}

/** The text of `stream` (stdin), at most `limit` bytes; stops reading as soon as the limit is passed. */
export async function readTextStream(
  stream: NodeJS.ReadableStream & { destroy?: () => void },
  source = 'stdin',
  limit = MAX_INPUT_BYTES,
): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      total += b.length;
      if (total > limit) {
        stream.destroy?.();
        throw tooLarge(source, limit);
      }
      chunks.push(b);
    }
  } catch (err) {
    if (err instanceof InvalidValueError) throw err;
    throw cannotRead(source, err);
  }
  return decode(chunks);
}
