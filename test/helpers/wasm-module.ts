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

/** Arguments of a call to the `abort` import: message pointer, file pointer, line, column. */
export type AbortArgs = readonly [number, number, number, number];

/** What a module has besides its constant functions. */
export interface ModuleExtras {
  /** Exported functions (() -> i32) that call the `env.abort` import with these arguments. */
  readonly aborting?: Readonly<Record<string, AbortArgs>>;
  /** A start function that calls `env.abort` with these arguments while the module is instantiated. */
  readonly startAbort?: AbortArgs;
  /** Bytes written into the memory at `offset` when the module is instantiated. */
  readonly data?: { readonly offset: number; readonly bytes: readonly number[] };
}

/**
 * A module exporting `functions` (name -> the constant it returns) and, with `memory`, a memory named
 * memory; with `extras`, it imports `env.abort` (four i32, no result) and calls it as they say.
 */
export function wasmModule(
  functions: Readonly<Record<string, number>>,
  memory = true,
  extras: ModuleExtras = {},
): Uint8Array {
  const aborting = extras.aborting ?? {};
  const imports = Object.keys(aborting).length > 0 || extras.startAbort !== undefined;
  const calls = (args: AbortArgs): number[] => [...args.flatMap((a) => [0x41, ...sleb(a)]), 0x10, 0];
  // Types: 0 () -> i32, 1 (i32, i32, i32, i32) -> (), 2 () -> ().
  const bodies: { type: number; code: number[]; exported?: string }[] = [
    ...Object.entries(functions).map(([n, c]) => ({ type: 0, code: [0x41, ...sleb(c)], exported: n })),
    ...Object.entries(aborting).map(([n, args]) => ({ type: 0, code: [...calls(args), 0x41, 0], exported: n })),
    ...(extras.startAbort === undefined ? [] : [{ type: 2, code: calls(extras.startAbort) }]),
  ];
  // The import, when there is one, is function 0: the module's own functions follow it.
  const first = imports ? 1 : 0;
  const bytes = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  bytes.push(...section(1, [3, 0x60, 0, 1, 0x7f, 0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 0, 0x60, 0, 0]));
  if (imports) bytes.push(...section(2, [1, ...name('env'), ...name('abort'), 0x00, 1]));
  bytes.push(...section(3, [...uleb(bodies.length), ...bodies.map((b) => b.type)]));
  if (memory) bytes.push(...section(5, [1, 0x00, 1]));
  const exported = bodies.flatMap((b, i) =>
    b.exported === undefined ? [] : [[...name(b.exported), 0x00, ...uleb(first + i)]],
  );
  if (memory) exported.push([...name('memory'), 0x02, 0]);
  bytes.push(...section(7, [...uleb(exported.length), ...exported.flat()]));
  if (extras.startAbort !== undefined) bytes.push(...section(8, uleb(first + bodies.length - 1)));
  const code = bodies.flatMap((b) => {
    const body = [0, ...b.code, 0x0b];
    return [...uleb(body.length), ...body];
  });
  bytes.push(...section(10, [...uleb(bodies.length), ...code]));
  if (extras.data !== undefined) {
    const { offset, bytes: data } = extras.data;
    bytes.push(...section(11, [1, 0x00, 0x41, ...sleb(offset), 0x0b, ...uleb(data.length), ...data]));
  }
  return Uint8Array.from(bytes);
}

/** An AssemblyScript string in memory at `at`: its byte length in the 4 bytes before, then UTF-16LE. */
export function assemblyString(at: number, text: string): { offset: number; bytes: number[] } {
  const utf16 = [...text].flatMap((ch) => [ch.charCodeAt(0) & 0xff, ch.charCodeAt(0) >>> 8]);
  const length = utf16.length;
  return { offset: at - 4, bytes: [length & 0xff, (length >>> 8) & 0xff, 0, 0, ...utf16] };
}
