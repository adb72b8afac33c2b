/**
 * The ABI is checked both ways: the built module (release and debug) exports exactly the functions
 * src/solve/wasm/abi.ts declares, plus its memory, none missing and none extra; and the limits its regions
 * are sized for are the ones validation enforces (src/limits.ts).
 */
import { describe, expect, it } from 'vitest';
import { MAX_NODES, MAX_SESSIONS } from './helpers/internals.js';
import { ABI_FUNCTIONS, moduleExportNames, moduleLimits } from './helpers/internals.js';

describe('WASM ABI', () => {
  for (const build of ['release', 'debug'] as const) {
    it(`the ${build} module exports exactly ABI_FUNCTIONS and memory`, async () => {
      const names = await moduleExportNames(build);
      expect([...names].sort()).toEqual([...ABI_FUNCTIONS, 'memory'].sort());
    });

    it(`the ${build} module's regions are sized for the validated limits`, async () => {
      expect(await moduleLimits(build)).toEqual({ maxNodes: MAX_NODES, maxSessions: MAX_SESSIONS });
    });
  }
});
