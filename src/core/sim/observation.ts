// What the orchestrator observes of an episode, as a type: the task's visible features (domain, step
// types, noisy difficulty hints), the models' public descriptors (descriptors.ts), prices, and the
// history of its own calls with the confidence each returned, read into a belief about the evidence
// gathered. The world's truth (item latents, true skills, whether a call really found something,
// whether a step needs a tool) is not in it: the policy's features and every rule take a PublicView,
// so the compiler keeps them off the truth (test/observation.test.ts also proves it on values).

import type { Catalog, Driver } from './catalog';
import { CONFIDENCE_BIAS, CONFIDENCE_NOISE, confidenceSeparation, type SimConfig } from './callModel';
import type { Slot } from './slots';

/** An episode as the orchestrator sees it. BatchEnv is one; nothing here reads what only the world knows. */
export interface PublicView {
  readonly catalog: Catalog;
  readonly sim: SimConfig;
  readonly slots: readonly Slot[];
  readonly nTools: number;
  readonly nSlots: number;
  readonly nActions: number;
  readonly submitAction: number;
  readonly capacity: number;
  readonly size: number;
  readonly driver: Driver;
  /** [j·K + type]: model j's described skill (descriptors.ts), NaN where it has none; the driver's in `driverSkill`. */
  readonly describedSkill: Float64Array;
  readonly driverSkill: Float64Array;
  /** [j·2 + role]: model j's described writing (NaN where it does not write); the driver's in `driverWrites`. */
  readonly describedWrites: Float64Array;
  readonly driverWrites: Float64Array;
  /** [j·K + type]: tool j's first lift on a step of the type (public: what a tool reaches). */
  readonly lift: Float64Array;
  // The task's visible features.
  readonly domain: Int32Array;
  readonly nUnits: Int32Array;
  readonly nSteps: Int32Array;
  readonly stepType: Int32Array;
  readonly hint: Float32Array;
  /** How often a step of its type needs a tool in its suite (tasks.needsToolRate); whether this one does is hidden. */
  readonly needsPrior: Float32Array;
  readonly available: Uint8Array;
  readonly priceScale: Float32Array;
  readonly budget: Int32Array;
  readonly promptTokens: Float64Array;
  // Its own history.
  readonly done: Uint8Array;
  readonly unitIdx: Int32Array;
  readonly turn: Int32Array;
  readonly cost: Float64Array;
  readonly latencyMs: Float64Array;
  readonly context: Float64Array;
  readonly calls: Int32Array;
  readonly slotCalls: Int32Array;
  readonly unitCalls: Int32Array;
  readonly tries: Int32Array;
  readonly bestSignal: Float32Array;
  readonly lastSignal: Float32Array;
  /** [i·MAX_STEPS + k]: the belief read from the signals: expected evidence, expected finds, P(no find yet). */
  readonly beliefEvidence: Float32Array;
  readonly beliefFinds: Float32Array;
  readonly noFind: Float32Array;
  unitRange(i: number): [number, number];
  target(i: number, s: number): number;
  allowed(i: number, s: number): boolean;
}

/** Density of N(0, 1) up to its constant (the likelihood ratio below needs only ratios). */
const kernel = (z: number): number => Math.exp(-0.5 * z * z);

/**
 * P(the call found what the step needs | the confidence it returned): Bayes on the prior p̂ with the
 * signal's two public distributions (callModel.confidence: logit(signal) ~ N(bias ± k(auroc), noise²)).
 */
export function findPosterior(prior: number, signal: number, auroc: number): number {
  const s = Math.min(1 - 1e-6, Math.max(1e-6, signal));
  const x = Math.log(s / (1 - s)) - CONFIDENCE_BIAS, k = confidenceSeparation(auroc);
  const right = prior * kernel((x - k) / CONFIDENCE_NOISE), wrong = (1 - prior) * kernel((x + k) / CONFIDENCE_NOISE);
  return right + wrong > 0 ? right / (right + wrong) : prior;
}
