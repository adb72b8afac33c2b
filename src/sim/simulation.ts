/**
 * The discrete-event simulator: workers run agent tasks on nodes under a policy (see policy.ts for the
 * lifecycle, engine.ts for the throughput model, cache.ts for the prefix cache).
 *
 * Events, in time order; at equal times by class (completions, then tool returns, then scheduling, then
 * sampling), then by insertion: the order is a pure function of the inputs, so a seed gives one result.
 */
import { InvalidValueError } from '../errors.js';
import { MinHeap } from './heap.js';
import { MetricsAccumulator, type RunMetrics } from './metrics.js';
import { EngineNode } from './node.js';
import type { Admission, AdmittedSession, Policy, PolicyName, SchedulerView } from './policy.js';
import { Session } from './session.js';
import { reportedCapacityOf, type SimSetting } from './settings.js';
import { mean, quantileSorted } from '../stats.js';
import { MAX_SERIES_SAMPLES, MAX_SIM_TASKS } from './run-limits.js';
import type { Trace } from './trace.js';
import { generateTask } from './workload.js';

const EV_NODE = 0;
const EV_TOOL = 1;
const EV_TICK = 2;
const EV_DECIDE = 3;
const EV_SAMPLE = 4;
const EV_END = 5;
/** Secondary key = class * 2^44 + insertion sequence: exact in a double up to 2^53. */
const CLASS_STRIDE = 2 ** 44;
/** A run where no request starts or ends and no tool returns for this long cannot finish. */
const STALL_SECONDS = 86_400;

export interface SimulationOptions {
  readonly setting: SimSetting;
  readonly seed: number;
  /**
   * Run mode. `tasks`: this many tasks in total, pulled by the workers; the run ends with the last one.
   * `duration`: workers run tasks back to back and the run stops at this simulated time.
   */
  readonly mode: { readonly tasks: number } | { readonly duration: number };
  /** Seconds between samples of the running-request series; 0 for none. */
  readonly sampleEvery: number;
  /** Check capacity, held-weight and KV block invariants after every event (tests; slows runs down). */
  readonly checkInvariants?: boolean;
  /** Tasks replayed from a trace instead of drawn from the setting's workload profile (task i = trace task i). */
  readonly trace?: Trace;
}

/** A run's full result. */
export interface RunResult {
  readonly setting: string;
  readonly policy: PolicyName;
  readonly seed: number;
  /** The workload profile the run used. */
  readonly profile: string;
  readonly workers: number;
  readonly mode: { readonly tasks: number } | { readonly duration: number };
  /** Simulated seconds the run covered. */
  readonly simulatedTime: number;
  readonly metrics: RunMetrics;
  /** Requests in prefill or decode, sampled every `interval` seconds from time 0 (none when 0). */
  readonly series: { readonly interval: number; readonly running: number[] };
  /** Task indices in completion order (each exactly once). */
  readonly completedTasks: number[];
}

export class Simulation {
  readonly nodes: EngineNode[];
  /** Live sessions by task index (finished ones are dropped). */
  readonly sessions: (Session | undefined)[] = [];
  private pool: Session[] = [];
  private readonly events = new MinHeap(1024);
  private seq = 0;
  private now = 0;
  private nextTask = 0;
  private readonly totalTasks: number;
  private readonly endTime: number;
  private done = false;
  private decidePending = false;
  private tickIndex = 0;
  private readonly metrics = new MetricsAccumulator();
  private readonly running: number[] = [];
  private readonly completed: number[] = [];
  private lastSample = 0;
  private readonly view: SchedulerView;
  private readonly check: boolean;

  constructor(
    private readonly options: SimulationOptions,
    private readonly policy: Policy,
  ) {
    const { setting } = options;
    // A scheduler in front of the engines counts against the capacity they report; the routers' requests
    // wait for the engine's own blocks.
    this.nodes = setting.nodes.map(
      (n, i) =>
        new EngineNode(
          i,
          n.id,
          policy.admission === 'engine' ? n.capacity : reportedCapacityOf(n),
          setting.engine,
          n.capacity,
        ),
    );
    this.totalTasks = 'tasks' in options.mode ? options.mode.tasks : Number.POSITIVE_INFINITY;
    this.endTime = 'duration' in options.mode ? options.mode.duration : Number.POSITIVE_INFINITY;
    this.check = options.checkInvariants === true;
    const sim = this;
    this.view = {
      get time() {
        return sim.now;
      },
      nodes: this.nodes,
      get pool() {
        return sim.pool;
      },
      cachedTokens(session: number, node: number): number {
        const s = sim.sessions[session];
        const n = sim.nodes[node];
        return s === undefined || n === undefined ? 0 : n.cachedTokensOf(s);
      },
      get admitted(): AdmittedSession[] {
        return sim.admittedSessions();
      },
    };
    const starting = Math.min(setting.workers, this.totalTasks);
    for (let w = 0; w < starting; w++) this.startTask();
    this.push(0, EV_TICK, 0, 0);
    if (options.sampleEvery > 0) this.push(0, EV_SAMPLE, 0, 0);
    if (Number.isFinite(this.endTime)) this.push(this.endTime, EV_END, 0, 0);
  }

  /** Simulated time now. */
  get time(): number {
    return this.now;
  }

  get finished(): boolean {
    return this.done;
  }

  /** Processes events up to and including time `until` (or until the run ends). */
  runUntil(until: number): void {
    const ev = this.events;
    while (!this.done && ev.size > 0 && ev.peekKey() <= until) {
      const t = ev.peekKey();
      const kind = ev.peekA();
      const arg = ev.peekB();
      ev.pop();
      this.now = t;
      switch (kind >> 24) {
        case EV_NODE:
          this.onNode(kind & 0xffffff, arg);
          break;
        case EV_TOOL:
          if ((kind & 0xffffff) === 1) this.beginTask(arg);
          else this.onToolReturn(arg);
          break;
        case EV_TICK:
          this.onTick();
          break;
        case EV_DECIDE:
          this.decidePending = false;
          this.decide('event');
          break;
        case EV_SAMPLE:
          this.onSample();
          break;
        case EV_END:
          this.done = true;
          break;
      }
      if (this.check) this.checkInvariants();
    }
    // Nothing else happens before `until`: the clock is there now (steppers rely on time advancing).
    if (!this.done && until > this.now && Number.isFinite(until)) this.now = until;
  }

  /** Runs to the end and returns the result. */
  run(): RunResult {
    this.runUntil(Number.POSITIVE_INFINITY);
    if (!this.done) throw new Error('simulation ran out of events before its end (a scheduling deadlock)');
    return this.result();
  }

  /** The result of a finished run. */
  result(): RunResult {
    const m = this.metrics;
    const end = this.now;
    for (const n of this.nodes) {
      n.advance(end);
      n.flushHeld(end);
    }
    let decoded = m.decoded;
    // A run cut at a duration counts the tokens its still-decoding requests emitted by then.
    if (!Number.isFinite(this.totalTasks)) {
      for (const n of this.nodes) decoded += n.decodedInFlight();
    }
    const lat = m.latencySorted();
    const steady = m.steadyDecode();
    const toolShare = m.sessionSeconds > 0 ? m.toolSeconds / m.sessionSeconds : Number.NaN;
    const ttft = m.ttftSorted();
    const capacity = this.nodes.reduce((a, n) => a + n.capacity, 0);
    const held = this.nodes.reduce((a, n) => a + n.heldSeconds, 0);
    let evicted = 0;
    for (const n of this.nodes) evicted += n.blocks.evicted;
    const metrics: RunMetrics = {
      tasksCompleted: m.tasksCompleted,
      requests: m.requests,
      latencyMean: mean(lat),
      latencyP50: quantileSorted(lat, 0.5),
      latencyP95: quantileSorted(lat, 0.95),
      ttftMean: mean(ttft),
      ttftP50: quantileSorted(ttft, 0.5),
      ttftP95: quantileSorted(ttft, 0.95),
      ttftP99: quantileSorted(ttft, 0.99),
      ttftMax: ttft.length > 0 ? ttft[ttft.length - 1]! : Number.NaN,
      schedulerWaitMean: ttft.length > 0 ? m.schedulerWaitSum / ttft.length : Number.NaN,
      engineQueueMean: ttft.length > 0 ? m.engineQueueSum / ttft.length : Number.NaN,
      prefillMean: ttft.length > 0 ? m.prefillSum / ttft.length : Number.NaN,
      toolReturnToFirstTokenMean: m.toolReturnRequests > 0 ? m.toolReturnTtftSum / m.toolReturnRequests : Number.NaN,
      pauseWaitMean: m.toolReturnRequests > 0 ? m.pauseWaitSum / m.toolReturnRequests : Number.NaN,
      decodeThroughput: end > 0 ? decoded / end : Number.NaN,
      decodeThroughputSteady: steady.rate,
      preemptions: m.preemptions,
      cacheHitRate: m.promptTokens > 0 ? m.hitTokens / m.promptTokens : Number.NaN,
      makespan: Number.isFinite(this.totalTasks) ? m.lastCompletion : null,
      earlyAdmissions: m.earlyAdmissions,
      idleHoldSeconds: m.idleHoldSeconds,
      utilization: end > 0 ? held / (capacity * end) : Number.NaN,
      runningMean: end > 0 ? (m.runningIntegral + this.runningNow * (end - this.lastRunningChange)) / end : Number.NaN,
      toolShare,
      diagnostics: {
        toolShare,
        completionsPerSecond: steady.completions,
        freedPerTickTokens: m.ticks > 0 ? m.freedTokens / m.ticks : Number.NaN,
        allFitTickShare: m.poolTicks > 0 ? m.allFitTicks / m.poolTicks : Number.NaN,
        heldByToolCapacityShare: m.heldSeconds > 0 ? m.heldByToolSeconds / m.heldSeconds : Number.NaN,
      },
      solverCalls: this.policy.stats.solverCalls,
      solverFallbacks: this.policy.stats.solverFallbacks,
      tokens: {
        prompt: m.promptTokens,
        hit: m.hitTokens,
        computed: m.promptTokens - m.hitTokens,
        decoded,
        evictedBlocks: evicted,
        recomputed: m.recomputedTokens,
      },
      retention: m.retentionBins(),
    };
    return {
      setting: this.options.setting.name,
      policy: this.policy.name,
      seed: this.options.seed,
      profile:
        this.options.trace === undefined ? this.options.setting.workload.name : `trace ${this.options.trace.name}`,
      workers: this.options.setting.workers,
      mode: this.options.mode,
      simulatedTime: end,
      metrics,
      series: { interval: this.options.sampleEvery, running: this.running },
      completedTasks: this.completed,
    };
  }

  private lastRunningChange = 0;
  private runningNow = 0;
  /** Last time a request started or finished or a tool returned: a run with none for a day is stuck. */
  private lastProgress = 0;

  /** Keeps the exact time integral of running requests across a change of `delta` requests. */
  private changeRunning(delta: number): void {
    this.metrics.runningIntegral += this.runningNow * (this.now - this.lastRunningChange);
    this.lastRunningChange = this.now;
    this.runningNow += delta;
    this.lastProgress = this.now;
  }

  private push(time: number, cls: number, kind: number, arg: number): void {
    this.events.push(time, cls * CLASS_STRIDE + this.seq++, (cls << 24) | kind, arg);
  }

  private startTask(): void {
    if (this.nextTask >= MAX_SIM_TASKS) {
      throw new InvalidValueError(
        `a run may start at most ${MAX_SIM_TASKS} tasks: this --duration (mode.duration ${this.endTime} s) needs more, shorten it`,
      );
    }
    const index = this.nextTask++;
    const trace = this.options.trace;
    // A traced task with an arrival still to come holds its worker until then (EV_TOOL class, kind 1).
    const arrival = trace === undefined ? Number.NaN : trace.arrivals[index]!;
    if (arrival > this.now) this.push(arrival, EV_TOOL, 1, index);
    else this.beginTask(index);
  }

  private beginTask(index: number): void {
    const trace = this.options.trace;
    const task =
      trace === undefined ? generateTask(this.options.setting.workload, this.options.seed, index) : trace.tasks[index]!;
    if (trace !== undefined) this.lastProgress = this.now;
    const s = new Session(task, this.nodes.length, this.now);
    this.sessions[index] = s;
    this.pool.push(s);
    this.requestDecision();
  }

  private requestDecision(): void {
    if (this.decidePending || !this.policy.reactive) return;
    this.decidePending = true;
    this.push(this.now, EV_DECIDE, 0, 0);
  }

  private onTick(): void {
    if (this.now - this.lastProgress > STALL_SECONDS) {
      throw new Error(
        `simulation stalled: nothing ran for ${STALL_SECONDS} s of simulated time with ${this.pool.length} sessions waiting (policy ${this.policy.name})`,
      );
    }
    this.observeTick();
    this.decide('tick');
    this.tickIndex++;
    // Tick k is at k * period exactly, with no accumulated rounding.
    this.push(this.tickIndex * this.policy.period, EV_TICK, 0, 0);
  }

  /**
   * Tick diagnostics, before the policy decides: whether the whole pool would fit the nodes' residual
   * capacities (first fit decreasing by tokens: a sufficient test, so the share is a lower bound), and the
   * capacity held by sessions whose tool is running, integrated over the tick period.
   */
  private observeTick(): void {
    const m = this.metrics;
    m.ticks++;
    let held = 0;
    let heldByTool = 0;
    for (const n of this.nodes) held += n.held;
    for (const s of this.sessions) {
      if (s !== undefined && s.node >= 0 && s.state === 'admitted' && !s.pending) heldByTool += s.held;
    }
    m.heldSeconds += held * this.policy.period;
    m.heldByToolSeconds += heldByTool * this.policy.period;
    if (this.pool.length === 0) return;
    m.poolTicks++;
    const residual = this.nodes.map((n) => n.capacity - n.held);
    const sizes = this.pool.map((s) => s.tokens).sort((a, b) => b - a);
    for (const w of sizes) {
      let k = 0;
      while (k < residual.length && residual[k]! < w) k++;
      if (k === residual.length) return;
      residual[k] = residual[k]! - w;
    }
    m.allFitTicks++;
  }

  private onSample(): void {
    let r = 0;
    for (const n of this.nodes) r += n.running;
    if (this.running.length >= MAX_SERIES_SAMPLES) {
      throw new InvalidValueError(
        `the sample interval (--sample, sampleEvery) ${this.options.sampleEvery} s records more than ${MAX_SERIES_SAMPLES} samples in one run (simulated time reached ${this.now} s): sample less often`,
      );
    }
    this.running.push(r);
    this.lastSample++;
    this.push(this.lastSample * this.options.sampleEvery, EV_SAMPLE, 0, 0);
  }

  private decide(cause: 'tick' | 'event'): void {
    if (this.pool.length > 0) {
      const admissions = this.policy.schedule(this.view, cause);
      if (admissions.length > 0) this.apply(admissions);
    }
    if (cause === 'tick' && this.policy.rebalance !== undefined) {
      const { pause, mark } = this.policy.rebalance(this.view);
      for (const i of pause) this.pause(this.sessions[i]);
      for (const i of mark) {
        const s = this.sessions[i];
        if (s === undefined || s.node < 0 || s.marked)
          throw new Error(`policy ${this.policy.name} marked session ${i}, which is not admitted`);
        s.marked = true;
      }
    }
  }

  /** Sessions holding capacity, in index order (for sticky policies). */
  private admittedSessions(): AdmittedSession[] {
    const out: AdmittedSession[] = [];
    for (const s of this.sessions) {
      if (s === undefined || s.node < 0) continue;
      const acting = s.state === 'admitted' && !s.pending;
      out.push({
        index: s.index,
        id: s.id,
        node: s.node,
        tokens: s.tokens,
        held: s.held,
        acting,
        marked: s.marked,
        ...(acting && s.tool !== undefined ? { tool: s.tool } : {}),
      });
    }
    return out;
  }

  /** Sticky lifecycle: `s`, whose tool is running, releases its admission and goes back to the pool. */
  private pause(s: Session | undefined): void {
    if (s === undefined || s.node < 0 || s.state !== 'admitted' || s.pending) {
      throw new Error(
        `policy ${this.policy.name} paused ${s?.id ?? 'an unknown session'}, which is not admitted with its tool running`,
      );
    }
    this.release(s);
    this.enterPool(s);
  }

  /** `s` goes back to the waiting pool now, with the tokens it has. */
  private enterPool(s: Session): void {
    s.state = 'pool';
    s.pooledAt = this.now;
    s.pooledTokens = s.tokens;
    this.pool.push(s);
  }

  /** `s` gives back the capacity it holds. */
  private release(s: Session): void {
    this.metrics.freedTokens += s.held;
    this.nodes[s.node]!.hold(-s.held, this.now);
    s.held = 0;
    s.node = -1;
    s.marked = false;
  }

  /** Sticky lifecycle: the capacity `s` holds follows its context. */
  private restick(s: Session): void {
    const weight = s.tokens + (this.policy.stickyReserve ?? 0);
    this.nodes[s.node]!.hold(weight - s.held, this.now);
    s.held = weight;
  }

  /**
   * Interrupt lifecycle: the capacity `s` holds follows its context by `delta` tokens (negative when a
   * compaction shrank it); only growth can take a node over its capacity, so only growth is counted.
   */
  private regrow(s: Session, delta: number): void {
    this.nodes[s.node]!.hold(delta, this.now);
    s.held += delta;
    if (delta > 0) s.grown += delta;
  }

  private apply(admissions: readonly Admission[]): void {
    const admitted: Session[] = [];
    for (const a of admissions) {
      const s = this.sessions[a.session];
      if (s === undefined || s.state !== 'pool') {
        throw new Error(`policy ${this.policy.name} admitted session ${a.session}, which is not in the pool`);
      }
      const node = this.nodes[a.node];
      if (node === undefined)
        throw new Error(`policy ${this.policy.name} admitted ${s.id} onto unknown node ${a.node}`);
      if (!(a.weight >= s.tokens)) {
        throw new Error(
          `policy ${this.policy.name} admitted ${s.id} with weight ${a.weight} below its ${s.tokens} tokens`,
        );
      }
      if (node.held + a.weight > node.capacity) {
        throw new Error(
          `policy ${this.policy.name} admitted ${s.id} (weight ${a.weight}) onto ${node.id} beyond its capacity (${node.held} of ${node.capacity} held)`,
        );
      }
      node.hold(a.weight, this.now);
      s.held = a.weight;
      s.grown = 0;
      s.node = a.node;
      s.state = 'admitted';
      s.admittedAt = this.now;
      admitted.push(s);
    }
    this.pool = this.pool.filter((s) => s.state === 'pool');
    for (const s of admitted) if (s.pending) this.issue(s);
  }

  /** `s` is admitted and its request issued: it goes to its node's engine. */
  private issue(s: Session): void {
    const node = this.nodes[s.node]!;
    const m = this.metrics;
    m.requests++;
    if (s.admittedAt < s.issuedAt) {
      m.earlyAdmissions++;
      m.idleHoldSeconds += s.issuedAt - s.admittedAt;
    }
    s.prompt = s.tokens;
    s.output = s.task.output[s.turn]!;
    s.requestOutput = s.output;
    s.preempted = false;
    s.firstTokenAt = Number.NaN;
    this.sync(node);
    if (node.waitingHead() === undefined && this.tryStart(node, s)) {
      this.rescheduleNode(node);
    } else {
      s.state = 'queued';
      node.enqueueWait(s);
    }
  }

  /** Brings `node` to now: engine counters, decode block growth, and the preemptions growth forces. */
  private sync(node: EngineNode): void {
    node.advance(this.now);
    const victims = node.grow();
    if (victims.length === 0) return;
    this.metrics.preemptions += victims.length;
    for (let k = 0; k < victims.length; k++) this.changeRunning(-1);
  }

  /** Allocates blocks and starts the prefill of `s` on `node`, measuring retention; false if blocks lack. */
  private tryStart(node: EngineNode, s: Session): boolean {
    if (s.preempted) {
      // A preempted request restarts: its prompt and the tokens it had generated are prefilled again,
      // less what is still cached.
      if (node.allocate(s) < 0) return false;
      this.metrics.recomputedTokens += s.prompt - s.hit;
      this.changeRunning(1);
      s.state = 'prefill';
      s.prefillStartedAt = this.now;
      node.enqueuePrefill(s);
      return true;
    }
    // Retention on the session's last node, read before allocation can unlink the entry.
    const lastNode = s.lastNode >= 0 ? this.nodes[s.lastNode]! : undefined;
    const last = lastNode === undefined ? undefined : s.observations.find((o) => o.node === lastNode.id);
    let retainedFraction = Number.NaN;
    let idle = 0;
    if (last !== undefined && lastNode !== undefined) {
      const full = Math.floor(last.tokens / node.engine.blockSize) * node.engine.blockSize;
      if (full > 0) {
        retainedFraction = lastNode.cachedTokensOf(s) / full;
        idle = this.now - last.observedAt;
      }
    }
    if (node.allocate(s) < 0) return false;
    if (!Number.isNaN(retainedFraction)) this.metrics.retained(idle, retainedFraction);
    this.metrics.promptTokens += s.prompt;
    this.metrics.hitTokens += s.hit;
    this.changeRunning(1);
    s.state = 'prefill';
    s.prefillStartedAt = this.now;
    node.enqueuePrefill(s);
    return true;
  }

  private rescheduleNode(node: EngineNode): void {
    const next = node.reschedule();
    if (next < Number.POSITIVE_INFINITY) this.push(next, EV_NODE, node.index, node.version);
  }

  private onNode(index: number, version: number): void {
    const node = this.nodes[index]!;
    if (version !== node.version) return;
    this.sync(node);
    let progressed = true;
    while (progressed) {
      progressed = false;
      const p = node.takeFinishedPrefill();
      if (p !== undefined) {
        progressed = true;
        // A recomputed request emits its next token here, not its first.
        if (Number.isNaN(p.firstTokenAt)) this.firstToken(p);
        if (p.output > 1) {
          p.state = 'decode';
          node.startDecode(p);
        } else {
          this.finishRequest(node, p);
        }
      }
      const d = node.takeFinishedDecode(this.sessions);
      if (d !== undefined) {
        progressed = true;
        this.finishRequest(node, d);
      }
    }
    this.rescheduleNode(node);
  }

  /** The first token of `s`'s request: TTFT and its parts. */
  private firstToken(s: Session): void {
    const m = this.metrics;
    s.firstTokenAt = this.now;
    const ttft = this.now - s.issuedAt;
    m.ttft.push(ttft);
    const admitted = Math.max(s.issuedAt, s.admittedAt);
    m.schedulerWaitSum += admitted - s.issuedAt;
    m.engineQueueSum += s.prefillStartedAt - admitted;
    m.prefillSum += this.now - s.prefillStartedAt;
    if (s.turn > 0) {
      m.toolReturnTtftSum += ttft;
      m.toolReturnRequests++;
      m.pauseWaitSum += admitted - s.tool!.startedAt;
    }
  }

  /** The request of `s` emitted its last token: tool boundary (or task end). */
  private finishRequest(node: EngineNode, s: Session): void {
    const m = this.metrics;
    this.changeRunning(-1);
    m.decoded += s.requestOutput;
    s.tokens += s.requestOutput;
    node.releaseBlocks(s);
    s.observe(node.id, s.tokens, this.now);
    s.lastNode = node.index;
    const j = s.turn;
    s.turn++;
    const kind = s.task.toolKind[j]!;
    // Interrupt: the admission is released at the tool boundary. Sticky: kept across the tool, unless the
    // session was marked to pause here or its task ends.
    const keep = kind >= 0 && this.policy.lifecycle === 'sticky' && !s.marked;
    if (keep) this.restick(s);
    else this.release(s);
    this.startWaiting(node);
    if (kind >= 0) {
      const toolName =
        this.options.trace === undefined
          ? this.options.setting.workload.tools[kind]!.name
          : this.options.trace.toolNames[kind]!;
      const duration = s.task.duration[j]!;
      const deadline = s.task.deadline[j]!;
      const command = s.task.command[j];
      s.tool = {
        name: toolName,
        startedAt: this.now,
        ...(Number.isNaN(deadline) ? {} : { deadline: this.now + deadline }),
        ...(command === undefined ? {} : { command }),
      };
      s.toolReturnsAt = this.now + duration;
      s.pending = false;
      s.issuedAt = Number.NaN;
      if (keep) {
        s.state = 'admitted';
        s.admittedAt = this.now;
      } else {
        this.enterPool(s);
      }
      this.push(s.toolReturnsAt, EV_TOOL, 0, s.index);
    } else {
      s.state = 'done';
      s.tool = undefined;
      m.tasksCompleted++;
      m.latency.push(this.now - s.startedAt);
      m.sessionSeconds += this.now - s.startedAt;
      for (let k = 0; k < s.task.turns; k++) m.toolSeconds += s.task.duration[k]!;
      m.lastCompletion = this.now;
      m.completionTimes.push(this.now);
      m.decodedAtCompletion.push(m.decoded);
      this.completed.push(s.index);
      // A finished session is never referenced again (its cache entries only know its index): drop it so
      // long runs keep memory flat.
      this.sessions[s.index] = undefined;
      if (this.nextTask < this.totalTasks) this.startTask();
      else if (m.tasksCompleted === this.totalTasks) this.done = true;
    }
    this.requestDecision();
  }

  /** Blocks were freed on `node`: start queued requests in order while they fit. */
  private startWaiting(node: EngineNode): void {
    for (let s = node.waitingHead(); s !== undefined; s = node.waitingHead()) {
      if (!this.tryStart(node, s)) break;
      node.shiftWait();
    }
  }

  private onToolReturn(index: number): void {
    const s = this.sessions[index]!;
    const j = s.turn - 1;
    const tool = s.tool!;
    s.tool = { ...tool, returnedAt: this.now };
    this.policy.toolReturned({
      name: tool.name,
      startedAt: tool.startedAt,
      returnedAt: this.now,
      ...(tool.command === undefined ? {} : { command: tool.command }),
    });
    const compactTo = s.task.compactTo[j]!;
    this.lastProgress = this.now;
    const before = s.tokens;
    if (compactTo >= 0) {
      s.tokens = compactTo;
      s.epoch++;
      s.forgetObservations();
      s.lastNode = -1;
    } else {
      s.tokens += s.task.result[j]!;
    }
    s.pending = true;
    s.issuedAt = this.now;
    if (s.state === 'admitted') {
      // The hold follows the context the request is issued with. Sticky: tokens + reserve, recounted.
      // Interrupt: a session seated while its tool ran was weighed on its context before the tool's result
      // (its tokens + reserve, SPEC section 3); the result is now part of its tokens, so of its weight.
      if (this.policy.lifecycle === 'sticky') this.restick(s);
      else this.regrow(s, s.tokens - before);
      this.issue(s);
    } else {
      this.requestDecision();
    }
  }

  /** Throws if a capacity, block or accounting invariant is broken. */
  checkInvariants(): void {
    const heldBy = new Float64Array(this.nodes.length);
    const pinnedBy = new Float64Array(this.nodes.length);
    const grownBy = new Float64Array(this.nodes.length);
    for (const s of this.sessions) {
      if (s !== undefined && s.node >= 0) {
        heldBy[s.node] = heldBy[s.node]! + s.held;
        grownBy[s.node] = grownBy[s.node]! + s.grown;
      }
      if (s !== undefined && s.blocks > 0) {
        if (s.state !== 'prefill' && s.state !== 'decode')
          throw new Error(`invariant: ${s.id} pins blocks in state ${s.state}`);
        pinnedBy[s.node] = pinnedBy[s.node]! + s.blocks;
      }
    }
    for (const n of this.nodes) {
      // A sticky session's hold follows its context, so a node can go over capacity. Under the interrupt
      // lifecycle only by what sessions seated during their tool grew by when it returned.
      if (this.policy.lifecycle === 'interrupt' && n.held - grownBy[n.index]! > n.capacity + 1e-6)
        throw new Error(
          `invariant: ${n.id} holds ${n.held} (${grownBy[n.index]} of it grown) > capacity ${n.capacity}`,
        );
      if (Math.abs(n.held - heldBy[n.index]!) > 1e-6) {
        throw new Error(`invariant: ${n.id} held ${n.held} != sum of its sessions' weights ${heldBy[n.index]}`);
      }
      const b = n.blocks;
      if (b.pinned !== pinnedBy[n.index])
        throw new Error(`invariant: ${n.id} pins ${b.pinned} blocks, its requests ${pinnedBy[n.index]}`);
      if (b.pinned < 0 || b.cached < 0 || b.pinned + b.cached > b.totalBlocks) {
        throw new Error(`invariant: ${n.id} blocks pinned ${b.pinned} + cached ${b.cached} > total ${b.totalBlocks}`);
      }
      if (b.countCached() !== b.cached)
        throw new Error(`invariant: ${n.id} LRU holds ${b.countCached()} blocks, counter says ${b.cached}`);
    }
  }
}
