// The per-episode arrays of the batched env (env.ts): each episode's task data and its running
// state (unit, turn, cost, latency, tokens, calls, evidence), one slot per episode in typed arrays.
// Kept apart so env.ts holds the harness's rules only.

import type { Task } from './tasks';
import { MAX_STEPS, type TraceEntry } from './episode';
import type { Slot } from './slots';

export class EpisodeState {
  readonly nTools: number;
  readonly nSlots: number;
  /** Slots in use after the last reset. */
  size = 0;

  // Per-episode task data (set by reset).
  readonly tasks: (Task | null)[];
  readonly keys: Uint32Array;
  readonly nSteps: Int32Array;
  readonly domain: Int32Array;
  readonly promptTokens: Float64Array;
  /** The episode's turn budget (the task's own, else the world's maxTurns). */
  readonly budget: Int32Array;

  // Per-episode state.
  readonly unitIdx: Int32Array;
  readonly turn: Int32Array;
  readonly done: Uint8Array;
  readonly answered: Uint8Array;
  readonly outcome: Uint8Array;
  readonly cost: Float64Array;
  readonly latencyMs: Float64Array;
  /** Tokens sent to and returned by calls. */
  readonly tokens: Float64Array;
  /** [i·nTools + j] calls of each resource in the episode (a written search counts its writer and its tool). */
  readonly calls: Int32Array;
  /** [i·nSlots + s] calls of each slot on the current unit. */
  readonly slotCalls: Int32Array;
  /** Evidence calls on the current unit; the best and last signal they showed (−1: none yet). */
  readonly unitCalls: Int32Array;
  readonly bestSignal: Float32Array;
  readonly lastSignal: Float32Array;
  /** [i·MAX_STEPS + k]: evidence gathered for the step (logit lift), how many results made it, and the calls that tried. */
  readonly evidence: Float32Array;
  readonly hits: Int32Array;
  readonly tries: Int32Array;
  /**
   * [i·MAX_STEPS + k]: the orchestrator's belief from the signals it saw (observation.ts): expected
   * evidence, expected finds, and the chance that no call has found anything yet.
   */
  readonly beliefEvidence: Float32Array;
  readonly beliefFinds: Float32Array;
  readonly noFind: Float32Array;
  /** [i·MAX_STEPS + k]: the committed step came out right. */
  readonly stepCorrect: Uint8Array;
  /** Tokens of context the next turn reads (prompt + every earlier turn's notes and results). */
  readonly context: Float64Array;
  /** The driver has already written its one-generation answer (Driver.answersAtOnce). */
  protected readonly spokeAlone: Uint8Array;
  traces: TraceEntry[][] | null = null;

  constructor(
    readonly capacity: number,
    nTools: number,
    readonly slots: readonly Slot[],
  ) {
    const J = nTools, NS = capacity * MAX_STEPS;
    this.nTools = J;
    this.nSlots = slots.length;
    this.tasks = new Array<Task | null>(capacity).fill(null);
    this.keys = new Uint32Array(capacity);
    this.nSteps = new Int32Array(capacity);
    this.domain = new Int32Array(capacity);
    this.promptTokens = new Float64Array(capacity);
    this.budget = new Int32Array(capacity);
    this.unitIdx = new Int32Array(capacity);
    this.turn = new Int32Array(capacity);
    this.done = new Uint8Array(capacity);
    this.answered = new Uint8Array(capacity);
    this.outcome = new Uint8Array(capacity);
    this.cost = new Float64Array(capacity);
    this.latencyMs = new Float64Array(capacity);
    this.tokens = new Float64Array(capacity);
    this.calls = new Int32Array(capacity * J);
    this.slotCalls = new Int32Array(capacity * this.nSlots);
    this.unitCalls = new Int32Array(capacity);
    this.bestSignal = new Float32Array(capacity);
    this.lastSignal = new Float32Array(capacity);
    this.evidence = new Float32Array(NS);
    this.hits = new Int32Array(NS);
    this.tries = new Int32Array(NS);
    this.beliefEvidence = new Float32Array(NS);
    this.beliefFinds = new Float32Array(NS);
    this.noFind = new Float32Array(NS);
    this.stepCorrect = new Uint8Array(NS);
    this.context = new Float64Array(capacity);
    this.spokeAlone = new Uint8Array(capacity);
  }
}
