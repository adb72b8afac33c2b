/**
 * The benchmark families, hardest-first within the tick-shaped ones. See each file's header for its
 * generator and parameters.
 */
import { bigSteadyFamily } from './big-steady.js';
import { burstFamily } from './burst.js';
import type { Family, FamilyGroup } from './family.js';
import { largeFamily } from './large.js';
import { mkpFamily } from './mkp.js';
import { nearFittingFamily } from './near-fitting.js';
import { singleCreditFamily } from './single-credit.js';
import { spreadCreditFamily } from './spread-credit.js';
import { steadyStateFamily } from './steady-state.js';
import { warmUpFamily } from './warm-up.js';

export { groupKey, type Family, type FamilyGroup } from './family.js';

export const FAMILIES: readonly Family[] = [
  singleCreditFamily,
  spreadCreditFamily,
  nearFittingFamily,
  largeFamily,
  mkpFamily,
  steadyStateFamily,
  warmUpFamily,
  burstFamily,
  bigSteadyFamily,
];

export const FAMILY_NAMES = FAMILIES.map((f) => f.name);

/** Every group of the named families, in family order. */
export function familyGroups(names: readonly string[]): FamilyGroup[] {
  return FAMILIES.filter((f) => names.includes(f.name)).flatMap((f) => f.groups);
}
