/**
 * What a benchmark family is: a named, documented source of solver Problems, split into groups (a node
 * count, an instance class and size, a simulator setting) that the harness reports separately. Every
 * generated family is a pure function of (group, seed, count): instance i is drawn from its own random
 * stream, so asking for more instances never changes the first ones.
 */
import type { Problem } from '../../types.js';

/** One reported row: problems of one shape, solved at one quantum. */
export interface FamilyGroup {
  /** The family's name, e.g. `single-credit`. */
  readonly family: string;
  /** Unique in the family, e.g. `4n` or `strong-50x5`. */
  readonly name: string;
  /** Nodes of every problem in the group (the goal's thresholds depend on it). */
  readonly nodes: number;
  /** The solve option `quantum` the group is solved at. */
  readonly quantum: number;
  /** `count` problems from `seed`; deterministic. */
  generate(seed: number, count: number): Promise<Problem[]>;
}

/** A family: its groups and a one-line description of its generator, for the report. */
export interface Family {
  readonly name: string;
  readonly description: string;
  readonly groups: readonly FamilyGroup[];
}

/** `family/group`, the key of a group in reports and pinned corpora. */
export function groupKey(g: Pick<FamilyGroup, 'family' | 'name'>): string {
  return `${g.family}/${g.name}`;
}
