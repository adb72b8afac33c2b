/**
 * Hand-made WebAssembly modules for the loader's checks: a module that exports a memory (or not) and the
 * named functions, each of type () -> i32 returning its given constant. Built byte by byte (the binary
 * format's type, function, memory, export and code sections), so the tests need no assembler.
 */

/** Unsigned LEB128. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 of a 32-bit integer. */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const section = (id: number, content: number[]): number[] => [id, ...uleb(content.length), ...content];
const name = (text: string): number[] => {
  const bytes = [...new TextEncoder().encode(text)];
  return [...uleb(bytes.length), ...bytes];
};

/** A module exporting `functions` (name -> the constant it returns) and, with `memory`, a memory named memory. */
export function wasmModule(functions: Readonly<Record<string, number>>, memory = true): Uint8Array {
  const names = Object.keys(functions);
  const bytes = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  // One type: () -> i32.
  bytes.push(...section(1, [1, 0x60, 0, 1, 0x7f]));
  bytes.push(...section(3, [...uleb(names.length), ...names.map(() => 0)]));
  if (memory) bytes.push(...section(5, [1, 0x00, 1]));
  const exports = names.flatMap((n, i) => [...name(n), 0x00, ...uleb(i)]);
  const memoryExport = memory ? [...name('memory'), 0x02, 0] : [];
  bytes.push(...section(7, [...uleb(names.length + (memory ? 1 : 0)), ...exports, ...memoryExport]));
  const bodies = names.flatMap((n) => {
    const body = [0, 0x41, ...sleb(functions[n]!), 0x0b];
    return [...uleb(body.length), ...body];
  });
  bytes.push(...section(10, [...uleb(names.length), ...bodies]));
  return Uint8Array.from(bytes);
}
