/**
 * The calling thread's own CPU time and run-queue wait, for telling a slow solve from a preempted one.
 * Read from Linux's `/proc/thread-self/schedstat` (nanoseconds on a CPU, nanoseconds runnable but waiting
 * for one, timeslices), through a descriptor opened once and a buffer allocated once, so a reading costs
 * one small read and allocates nothing. Elsewhere there is no per-thread clock in Node 20: `openThreadClock`
 * returns null and callers fall back to `process.cpuUsage()`, which counts every thread of the process.
 */
import { closeSync, openSync, readSync } from 'node:fs';

const SCHEDSTAT = '/proc/thread-self/schedstat';

/** One reading, nanoseconds since the thread started. */
export interface ThreadTimes {
  /** Time the thread ran on a CPU. */
  cpuNs: number;
  /** Time the thread was runnable but waited for a CPU (preempted, or woken and not yet scheduled). */
  waitNs: number;
}

export interface ThreadClock {
  /** Fills `into` with the opening thread's times and returns it. */
  read(into: ThreadTimes): ThreadTimes;
  close(): void;
}

/**
 * Opens the clock of the calling thread (a reading always describes the thread that opened it), or
 * returns null where the platform has none.
 */
export function openThreadClock(): ThreadClock | null {
  let fd: number;
  try {
    fd = openSync(SCHEDSTAT, 'r');
  } catch {
    return null;
  }
  const buf = Buffer.alloc(96);
  const clock: ThreadClock = {
    read(into) {
      // The kernel brings a running thread's CPU time up to date only at scheduler events and ticks (4 ms
      // here) unless asked: getrusage(RUSAGE_SELF), behind process.cpuUsage(), updates the calling
      // thread's before summing the process's, so the file read next is exact to the nanosecond.
      process.cpuUsage();
      const n = readSync(fd, buf, 0, buf.length, 0);
      let field = 0;
      let v = 0;
      for (let i = 0; i < n && field < 2; i++) {
        const c = buf[i] as number;
        if (c >= 48 && c <= 57) v = v * 10 + (c - 48);
        else {
          if (field === 0) into.cpuNs = v;
          else into.waitNs = v;
          field++;
          v = 0;
        }
      }
      return into;
    },
    close() {
      closeSync(fd);
    },
  };
  // A file that exists but does not read as two numbers (an unusual kernel) counts as no clock.
  const probe = clock.read({ cpuNs: -1, waitNs: -1 });
  if (!(probe.cpuNs >= 0 && probe.waitNs >= 0)) {
    clock.close();
    return null;
  }
  return clock;
}

/** The reader behind threadCpuMs, made on first use (module state is per thread, as the clock is). */
let cpuReader: (() => number) | null = null;

/**
 * The calling thread's CPU time in milliseconds, from its thread clock (opened on first use and kept open
 * for the thread's life), or the process's (`process.cpuUsage()`) where there is no thread clock.
 */
export function threadCpuMs(): number {
  if (cpuReader === null) {
    const clock = openThreadClock();
    const t: ThreadTimes = { cpuNs: 0, waitNs: 0 };
    cpuReader =
      clock === null
        ? () => {
            const u = process.cpuUsage();
            return (u.user + u.system) / 1000;
          }
        : () => clock.read(t).cpuNs / 1e6;
  }
  return cpuReader();
}
