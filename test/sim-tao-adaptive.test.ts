import { beforeAll, describe, expect, it } from 'vitest';
import {
  adaptiveParams,
  createPolicy,
  defaultTaoBoundedParams,
  derivedHoldHorizon,
  loadTaoDeps,
  parseSetting,
  SETTINGS,
  type TaoDeps,
} from './helpers/internals.js';

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

describe('tao-adaptive: time constants derived from the setting', () => {
  it('the hold horizon is a node capacity over the idle prefill rate (chunk over the prefilling step time)', () => {
    for (const name of ['ds-64', 'qwen-160', 'glm-160']) {
      const s = SETTINGS[name]!;
      const e = s.engine;
      const rho = e.prefillChunk / (e.stepBase + (e.prefillPerKToken * e.prefillChunk) / 1000);
      expect(derivedHoldHorizon(s)).toBeCloseTo(s.nodes[0]!.capacity / rho, 9);
    }
  });

  it('with nodes of different sizes it takes the smallest ratio', () => {
    const s = parseSetting({
      name: 'mixed',
      extends: 'ds-64',
      nodes: [
        { id: 'a', capacity: 400_000 },
        { id: 'b', capacity: 100_000 },
      ],
    });
    const ds = SETTINGS['ds-64']!;
    expect(derivedHoldHorizon(s)).toBeCloseTo(derivedHoldHorizon(ds) * (100_000 / ds.nodes[0]!.capacity), 9);
  });

  it('the threshold is k horizons for tao-adaptive and the fixed 60 s for tao-adaptive-hold', () => {
    const s = SETTINGS['qwen-160']!;
    const tau = derivedHoldHorizon(s);
    expect(adaptiveParams('tao-adaptive', s, undefined, 4)).toMatchObject({ holdHorizon: tau, waitThreshold: 4 * tau });
    expect(adaptiveParams('tao-adaptive-hold', s, undefined)).toMatchObject({
      holdHorizon: tau,
      waitThreshold: defaultTaoBoundedParams.waitThreshold,
    });
  });

  it('a field given off its default overrides the derived value; one at the default does not', () => {
    const s = SETTINGS['glm-160']!;
    const tau = derivedHoldHorizon(s);
    expect(adaptiveParams('tao-adaptive', s, { ...defaultTaoBoundedParams, waitThreshold: 7 }, 4)).toMatchObject({
      holdHorizon: tau,
      waitThreshold: 7,
    });
    expect(adaptiveParams('tao-adaptive', s, { ...defaultTaoBoundedParams }, 4)).toMatchObject({
      holdHorizon: tau,
      waitThreshold: 4 * tau,
    });
  });

  it('is a registered policy of its own name on the TAO pipeline', () => {
    const s = SETTINGS['ds-16']!;
    expect(createPolicy('tao-adaptive', { setting: s, deps }).name).toBe('tao-adaptive');
    expect(createPolicy('tao-adaptive-hold', { setting: s, deps }).lifecycle).toBe('interrupt');
  });
});
