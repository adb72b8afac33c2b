import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import { loadSettingFile, parseSetting, validateSetting } from './helpers/internals.js';
import { SETTINGS, SETTING_NAMES } from './helpers/internals.js';
import { CLAUDE_CODE_PROFILE } from './helpers/internals.js';

describe('named settings', () => {
  it('has the nine paper settings, each valid', () => {
    expect(SETTING_NAMES).toEqual([
      'ds-16',
      'ds-32',
      'ds-64',
      'qwen-96',
      'qwen-128',
      'qwen-160',
      'glm-96',
      'glm-128',
      'glm-160',
    ]);
    for (const name of SETTING_NAMES) expect(() => validateSetting(SETTINGS[name]!)).not.toThrow();
    expect(SETTINGS['ds-64']!.nodes).toHaveLength(2);
    expect(SETTINGS['qwen-128']!.nodes).toHaveLength(4);
    expect(SETTINGS['glm-160']!.nodes).toHaveLength(1);
    expect(SETTINGS['glm-160']!.workers).toBe(160);
  });
});

describe('custom settings from JSON', () => {
  it('extends a named setting and overrides fields, merging engine and workload field by field', () => {
    const s = parseSetting({
      name: 'mine',
      extends: 'qwen-96',
      workers: 10,
      nodes: [{ id: 'a', capacity: 160_000 }],
      engine: { stepBase: 0.02 },
      workload: { extends: 'claude-code', contextLimit: 150_000 },
    });
    expect(s.workers).toBe(10);
    expect(s.nodes).toEqual([{ id: 'a', capacity: 160_000 }]);
    expect(s.engine.stepBase).toBe(0.02);
    expect(s.engine.stepPerSeq).toBe(SETTINGS['qwen-96']!.engine.stepPerSeq);
    expect(s.workload.contextLimit).toBe(150_000);
    expect(s.workload.tools).toEqual(CLAUDE_CODE_PROFILE.tools);
  });

  const bad: [string, unknown, typeof InvalidTypeError | typeof InvalidValueError, string][] = [
    ['not an object', 3, InvalidTypeError, 'setting must be an object'],
    [
      'unknown field',
      { name: 'x', extends: 'ds-16', speed: 1 },
      InvalidValueError,
      'setting.speed is not a known field',
    ],
    [
      'unknown base',
      { name: 'x', extends: 'ds-99' },
      InvalidValueError,
      'setting.extends must be one of ds-16, ds-32, ds-64, qwen-96, qwen-128, qwen-160, glm-96, glm-128, glm-160 (got "ds-99")',
    ],
    [
      'string workers',
      { name: 'x', extends: 'ds-16', workers: '8' },
      InvalidTypeError,
      'setting.workers must be a number',
    ],
    [
      'zero workers',
      { name: 'x', extends: 'ds-16', workers: 0 },
      InvalidValueError,
      'setting.workers must be an integer from 1 to 4096',
    ],
    [
      'capacity not an integer',
      {
        name: 'x',
        extends: 'ds-16',
        nodes: [
          { id: 'a', capacity: 200000 },
          { id: 'b', capacity: 1.5 },
        ],
      },
      InvalidValueError,
      'setting.nodes[1].capacity must be an integer from 1 to 9007199254740991',
    ],
    [
      'capacity too small for the workload',
      { name: 'x', extends: 'ds-16', nodes: [{ id: 'a', capacity: 20000 }] },
      InvalidValueError,
      'setting.nodes[0].capacity must be at least 36624 (contextLimit 32000 + output max 4096 + reserve 512 + one block), got 20000',
    ],
    [
      'duplicate node id',
      {
        name: 'x',
        extends: 'ds-16',
        nodes: [
          { id: 'a', capacity: 200000 },
          { id: 'a', capacity: 200000 },
        ],
      },
      InvalidValueError,
      'setting.nodes[1].id duplicates node "a"',
    ],
    [
      'negative engine constant',
      { name: 'x', extends: 'ds-16', engine: { stepPerSeq: -1 } },
      InvalidValueError,
      'setting.engine.stepPerSeq must be >= 0',
    ],
    [
      'bad distribution kind',
      { name: 'x', extends: 'ds-16', workload: { extends: 'swe-bench', output: { kind: 'normal', mean: 3 } } },
      InvalidValueError,
      'setting.workload.output.kind must be one of constant, uniform, lognormal',
    ],
    [
      'unbounded output',
      {
        name: 'x',
        extends: 'ds-16',
        workload: { extends: 'swe-bench', output: { kind: 'lognormal', median: 400, sigma: 0.5 } },
      },
      InvalidValueError,
      'setting.workload.output must have a finite max (a max_tokens)',
    ],
    [
      'timeout deadline without a timeout',
      {
        name: 'x',
        extends: 'ds-16',
        workload: {
          extends: 'swe-bench',
          tools: [
            { label: 'a', name: 'bash', weight: 1, duration: { kind: 'constant', value: 1 }, deadline: 'timeout' },
          ],
        },
      },
      InvalidValueError,
      'setting.workload.tools[0].deadline is "timeout" but setting.workload.tools[0].timeout is not set',
    ],
    [
      'missing fields without extends',
      { name: 'x', workers: 4 },
      InvalidTypeError,
      'setting.tasks must be given (no "extends" to take it from)',
    ],
  ];
  it.each(bad)('rejects %s with a typed error naming the field', (_label, input, type, message) => {
    expect(() => parseSetting(input)).toThrow(type);
    expect(() => parseSetting(input)).toThrow(message);
  });

  it('loads a file and reports invalid JSON by file name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-setting-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ name: 'filed', extends: 'glm-96', workers: 3 }));
    expect((await loadSettingFile(good)).workers).toBe(3);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ "name": ');
    await expect(loadSettingFile(broken)).rejects.toThrow(InvalidValueError);
    await expect(loadSettingFile(broken)).rejects.toThrow(`${broken} is not valid JSON`);
  });
});
