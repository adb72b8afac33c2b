/**
 * Where `tao bench` keeps its recorded corpora unless `--cache-dir` says otherwise: the operating system's
 * per-user cache directory, never the working directory (an installed `tao bench` must not litter it).
 * `$XDG_CACHE_HOME` or `~/.cache` on Linux and the BSDs, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on
 * Windows; then `tao-solver/bench` inside it.
 */
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** The per-user cache directory of `platform` given `env`, falling back to the temporary directory. */
export function osCacheDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home = homedir(),
): string {
  if (platform === 'win32') return env.LOCALAPPDATA ?? join(home || tmpdir(), 'AppData', 'Local');
  if (platform === 'darwin') return join(home || tmpdir(), 'Library', 'Caches');
  const xdg = env.XDG_CACHE_HOME;
  // The XDG spec: a relative XDG_CACHE_HOME is invalid and ignored.
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return xdg;
  return join(home || tmpdir(), '.cache');
}

/** The default `--cache-dir`: `<OS cache directory>/tao-solver/bench`. */
export function defaultBenchCacheDir(): string {
  return join(osCacheDir(), 'tao-solver', 'bench');
}
