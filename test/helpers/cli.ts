/** Checks shared by the tests of the `tao` command's failures. */

/** A stack frame line as Node prints it (`    at fn (file:1:2)`). */
export const STACK_FRAME = /\n\s+at .+[:(]/;

/** Exit 2 with exactly one line on stderr and no stack frame: how every `tao` failure on bad input looks. */
export function isOneLineError(r: { code: number | null; stderr: string }): boolean {
  return (
    r.code === 2 &&
    r.stderr.endsWith('\n') &&
    r.stderr.trimEnd().split('\n').length === 1 &&
    !STACK_FRAME.test(r.stderr)
  );
}
