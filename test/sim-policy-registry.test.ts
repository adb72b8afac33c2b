import { beforeAll, describe, expect, it } from 'vitest';
import {
  InvalidValueError,
  loadTaoDeps,
  type TaoDeps,
  createPolicy,
  isPolicyName,
  needsDeps,
  POLICY_NAMES,
  POLICY_REGISTRY,
  PROBLEM_POLICIES,
  type PolicyName,
  policyModule,
  SETTINGS,
} from './helpers/internals.js';

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

const setting = SETTINGS['ds-16']!;

describe('the policy registry', () => {
  it('is the one list: the names, the solver-needing subset and the policy module all derive from it', () => {
    expect(POLICY_NAMES).toEqual(Object.keys(POLICY_REGISTRY));
    expect(policyModule.POLICY_NAMES).toBe(POLICY_NAMES);
    expect(PROBLEM_POLICIES).toEqual(POLICY_NAMES.filter((n) => POLICY_REGISTRY[n].needsSolver));
    expect(new Set(POLICY_NAMES).size).toBe(POLICY_NAMES.length);
  });

  it.each(POLICY_NAMES.map((n) => [n]))('%s: builds a policy of that name', (name: PolicyName) => {
    expect(isPolicyName(name)).toBe(true);
    expect(createPolicy(name, { setting, deps }).name).toBe(name);
  });

  it.each(POLICY_NAMES.map((n) => [n]))('%s: needs the solver exactly when it says so', (name: PolicyName) => {
    if (needsDeps(name)) expect(() => createPolicy(name, { setting })).toThrow(/needs the solver/);
    else expect(createPolicy(name, { setting }).name).toBe(name);
  });

  it('rejects an unknown name with a typed error listing the names', () => {
    expect(isPolicyName('toString')).toBe(false);
    expect(() => createPolicy('nope' as PolicyName, { setting })).toThrow(InvalidValueError);
    expect(() => createPolicy('nope' as PolicyName, { setting })).toThrow(/must be one of tao, /);
  });
});
