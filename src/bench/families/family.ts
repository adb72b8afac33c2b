/**
 * What a benchmark family is: a named, documented source of solver Problems, split into groups (a node
 * count, an instance class and size, a simulator setting) that the harness reports separately. Every
 * generated family is a pure function of (group, seed, count): instance i is drawn from its own random
 * stream, so asking for more instances never changes the first ones.
 */
import { defaultSolveOptions } from '../../solve/options.js';
import type { Problem } from '../../types.js';
import { SETTING_NAMES, settingInfo, type SettingName } from '../settings.js';

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
  /** Whether the benchmark asks HiGHS for an oracle value on a sample (absent = yes; it does not finish past 8 nodes at these sizes). */
  readonly highs?: boolean;
  /** Whether the group is a big-cluster one, whose problem count is `FamilyRunOptions.bigCount` (absent = no). */
  readonly big?: boolean;
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

/**
 * One group per node count of a generated tick family, at the default quantum: `make(seed, groupIndex,
 * nodes, index)` draws instance `index`.
 */
export function nodeCountGroups(
  family: string,
  nodeCounts: readonly number[],
  make: (seed: number, groupIndex: number, nodes: number, index: number) => Problem,
): FamilyGroup[] {
  return nodeCounts.map((m, gi) => ({
    family,
    name: `${m}n`,
    nodes: m,
    quantum: defaultSolveOptions.quantum,
    generate: async (seed, count) => Array.from({ length: count }, (_, i) => make(seed, gi, m, i)),
  }));
}

/** The most nodes at which HiGHS finishes the big-cluster groups within the benchmark's time limit. */
export const HIGHS_MAX_NODES = 8;

/**
 * One group per (nodes, sessions) size of a generated big-cluster family, named `<nodes>x<sessions>`, at
 * the default quantum: `make(seed, groupIndex, nodes, sessions, index)` draws instance `index`.
 */
export function sizeGroups(
  family: string,
  sizes: readonly (readonly [number, number])[],
  make: (seed: number, groupIndex: number, nodes: number, sessions: number, index: number) => Problem,
): FamilyGroup[] {
  return sizes.map(([m, n], gi) => ({
    family,
    name: `${m}x${n}`,
    nodes: m,
    quantum: defaultSolveOptions.quantum,
    highs: m <= HIGHS_MAX_NODES,
    big: true,
    generate: async (seed, count) => Array.from({ length: count }, (_, i) => make(seed, gi, m, n, i)),
  }));
}

/** One group per paper setting at the default quantum, its problems from `generate`. */
export function settingGroups(
  family: string,
  generate: (setting: SettingName, seed: number, count: number) => Promise<Problem[]>,
): FamilyGroup[] {
  return SETTING_NAMES.map((setting) => ({
    family,
    name: setting,
    nodes: settingInfo(setting).nodes,
    quantum: defaultSolveOptions.quantum,
    generate: (seed, count) => generate(setting, seed, count),
  }));
}
