/**
 * Standard output that may close early: `tao demo | head -1` closes the pipe after one line, and the
 * next write fails with EPIPE. That is the reader's choice, not a failure of the command: exit quietly.
 */

/** Makes EPIPE on `stream` end the process with code 0 and no message; other errors stay fatal. */
export function exitQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}
