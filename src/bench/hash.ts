/** The one digest the harness uses for corpus identity, cache keys and the WASM build hash. */
import { createHash } from 'node:crypto';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
