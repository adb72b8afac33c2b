/**
 * Output paths are checked before a command does its work, so that a long run never ends by failing to
 * write its result: the path must not be a directory, an existing file must be writable, and the directory
 * it goes into must exist (or, with `createDirs`, its nearest existing ancestor must be a writable directory).
 */
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InvalidValueError } from '../errors.js';

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Throws an InvalidValueError naming `flag` unless `file` can be written. */
export function checkWritable(flag: string, file: string, createDirs = false): void {
  const own = statOrNull(file);
  if (own !== null) {
    if (own.isDirectory()) throw new InvalidValueError(`${flag} ${file} is a directory`);
    if (!writable(file)) throw new InvalidValueError(`${flag} ${file} is not writable`);
    return;
  }
  let dir = dirname(resolve(file));
  let info = statOrNull(dir);
  if (info === null && !createDirs)
    throw new InvalidValueError(`${flag} ${file}: directory ${dirname(file)} does not exist`);
  while (info === null && dirname(dir) !== dir) {
    dir = dirname(dir);
    info = statOrNull(dir);
  }
  if (info === null || !info.isDirectory()) throw new InvalidValueError(`${flag} ${file}: ${dir} is not a directory`);
  if (!writable(dir)) throw new InvalidValueError(`${flag} ${file}: directory ${dir} is not writable`);
}
