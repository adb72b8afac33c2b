/**
 * Family `steady-state`: Problems the simulator's TAO policy builds after warm-up, per paper setting.
 * The first minutes of a run fill an empty cluster (pools of 2-4 sessions, nearly everything fits); the
 * scheduler's real work starts once the KV caches are full and sessions queue.
 *
 * Parameters: setting (group: the nine paper settings); seeds seed, seed + 1, ..., seed + SEEDS - 1, each
 * contributing an equal share of the count; per seed, after WARM_UP_SEC simulated seconds, every STRIDE-th
 * non-trivial Problem (at least two waiting sessions, one of which fits somewhere) in tick order. The
 * simulator's workload and capacities define the shape: re-record (it takes seconds) when they change.
 */
import { recordProblems } from '../../sim/index.js';
import type { Problem } from '../../types.js';
import type { SettingName } from '../settings.js';
import { settingGroups, type Family } from './family.js';

export const STEADY_STATE = Object.freeze({ warmUpSec: 600, seeds: 3, stride: 3, minSessions: 2 } as const);

/** `count` steady-state Problems of `setting` from seeds `seed`.. (see the file header). */
export async function steadyStateProblems(setting: SettingName, seed: number, count: number): Promise<Problem[]> {
  const out: Problem[] = [];
  for (let k = 0; k < STEADY_STATE.seeds; k++) {
    const want = Math.floor(count / STEADY_STATE.seeds) + (k < count % STEADY_STATE.seeds ? 1 : 0);
    let seen = 0;
    let taken = 0;
    if (want === 0) continue;
    for await (const r of recordProblems(setting, {
      seed: seed + k,
      count: Number.MAX_SAFE_INTEGER,
      minSessions: STEADY_STATE.minSessions,
    })) {
      if (r.time <= STEADY_STATE.warmUpSec) continue;
      if (seen++ % STEADY_STATE.stride !== 0) continue;
      out.push(r.problem);
      if (++taken >= want) break;
    }
  }
  return out;
}

export const steadyStateFamily: Family = {
  name: 'steady-state',
  description: `simulator ticks after ${STEADY_STATE.warmUpSec} s of warm-up, ${STEADY_STATE.seeds} seeds, every ${STEADY_STATE.stride}rd non-trivial tick`,
  groups: settingGroups('steady-state', steadyStateProblems),
};
