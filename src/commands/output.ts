/**
 * Standard output that may close early or fail. `tao demo | head -1` closes the pipe after one line, and
 * the next write fails with EPIPE: that is the reader's choice, not a failure of the command, so the
 * process exits 0 quietly. Any other write error (`> /dev/full`: ENOSPC) is a failure of the system: one
 * line on stderr naming it, exit 1.
 */

/** Makes EPIPE on `stream` end the process with code 0 and no message, and any other error with code 1 and one line. */
export function handleStdoutErrors(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    process.stderr.write(`tao: cannot write to standard output: ${err.code ?? err.message.split('\n', 1)[0]}\n`);
    process.exit(1);
  });
}
