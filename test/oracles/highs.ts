/**
 * HiGHS (MILP, compiled to WASM) as an independent oracle: the lexicographic optimum as three sequential
 * MILPs over binary x(i, b) on the quantized problem: maximize total credit; fix it and maximize ready
 * sessions; fix both and maximize tokens. Objectives are integers, so a gap below 1 proves optimality.
 */
import * as highsModule from 'highs';
import type { PlanValue, Problem } from '../helpers/internals.js';

interface HighsResult {
  Status: string;
  ObjectiveValue: number;
}
interface HighsInstance {
  solve(model: string, options?: Readonly<Record<string, string | number | boolean>>): HighsResult;
}
type HighsLoader = () => Promise<HighsInstance>;

// Under NodeNext the package's default export is typed as not callable; resolve the loader once, here.
function resolveLoader(): HighsLoader {
  let candidate: unknown = highsModule;
  for (let depth = 0; depth < 3 && typeof candidate !== 'function'; depth++) {
    candidate = (candidate as { default?: unknown }).default;
  }
  if (typeof candidate !== 'function') throw new Error('cannot find the highs loader export');
  return candidate as HighsLoader;
}

let instance: Promise<HighsInstance> | undefined;
export function loadHighs(): Promise<HighsInstance> {
  instance ??= resolveLoader()();
  return instance;
}

const OPTIONS = { output_flag: false, mip_rel_gap: 0, mip_abs_gap: 0.5, presolve: 'on' } as const;

/** Lexicographic optimum of `problem` at `quantum` by three MILPs. */
export function highsOptimum(highs: HighsInstance, problem: Problem, quantum: number): PlanValue {
  const nodes = problem.nodes;
  const cap = nodes.map((node) => Math.floor(node.capacity / quantum));
  const vars: { name: string; i: number; b: number; w: number; credit: number; ready: number; tokens: number }[] = [];
  problem.sessions.forEach((s, i) => {
    const w = Math.ceil(s.weight / quantum);
    nodes.forEach((node, b) => {
      if (s.eligible !== undefined && !s.eligible.includes(node.id)) return;
      if (w > cap[b]!) return;
      vars.push({
        name: `x_${i}_${b}`,
        i,
        b,
        w,
        credit: s.credit?.[node.id] ?? 0,
        ready: s.ready ? 1 : 0,
        tokens: s.tokens,
      });
    });
  });
  if (vars.length === 0) return { credit: 0, ready: 0, tokens: 0 };

  const sum = (coef: (v: (typeof vars)[number]) => number): string =>
    vars.map((v) => `${coef(v)} ${v.name}`).join(' + ');
  const rows: string[] = [];
  problem.sessions.forEach((_, i) => {
    const mine = vars.filter((v) => v.i === i);
    if (mine.length > 1) rows.push(`one_${i}: ${mine.map((v) => v.name).join(' + ')} <= 1`);
  });
  nodes.forEach((_, b) => {
    const mine = vars.filter((v) => v.b === b);
    if (mine.length > 0) rows.push(`cap_${b}: ${mine.map((v) => `${v.w} ${v.name}`).join(' + ')} <= ${cap[b]}`);
  });

  const stage = (objective: string, fixed: string[]): number => {
    const model = [
      'Maximize',
      ` obj: ${objective}`,
      'Subject To',
      ...rows.map((r) => ` ${r}`),
      ...fixed.map((r) => ` ${r}`),
      'Binaries',
      ` ${vars.map((v) => v.name).join(' ')}`,
      'End',
    ].join('\n');
    const result = highs.solve(model, OPTIONS);
    if (result.Status !== 'Optimal') throw new Error(`HiGHS: ${result.Status}`);
    return Math.round(result.ObjectiveValue);
  };

  const creditSum = sum((v) => v.credit);
  const readySum = sum((v) => v.ready);
  const credit = stage(creditSum, []);
  const ready = stage(readySum, [`fix_credit: ${creditSum} >= ${credit}`]);
  const tokens = stage(
    sum((v) => v.tokens),
    [`fix_credit: ${creditSum} >= ${credit}`, `fix_ready: ${readySum} >= ${ready}`],
  );
  return { credit, ready, tokens };
}
