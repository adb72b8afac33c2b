/**
 * What a report must say about where and on what it ran: the machine, Node, the package version and the
 * exact WASM build measured (a report on another build is a different measurement).
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { sha256 } from './hash.js';

/** The package root, from this file's location (src/bench or dist/bench). */
export const PACKAGE_ROOT = new URL('../../', import.meta.url);

export interface MachineInfo {
  cpus: { model: string; count: number };
  /** os.availableParallelism(): what the process may use. */
  parallelism: number;
  memoryGiB: number;
  node: string;
  os: { platform: string; release: string; arch: string };
  /** 1-minute load average when the run started: a loaded machine explains noisy numbers. */
  loadAverage1m: number;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpus: { model: cpus[0]?.model.trim() ?? 'unknown', count: cpus.length },
    parallelism: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: { platform: os.platform(), release: os.release(), arch: os.arch() },
    loadAverage1m: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
  };
}

/** sha256 of build/tao.wasm (the release build the solver loads), or null if it is not built. */
export async function wasmBuildHash(): Promise<{ path: string; sha256: string | null }> {
  const url = new URL('build/tao.wasm', PACKAGE_ROOT);
  try {
    return { path: 'build/tao.wasm', sha256: sha256(await readFile(url)) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { path: 'build/tao.wasm', sha256: null };
    throw err;
  }
}
