// Task distributions: the training pool (ToolScale-lite, every domain, filtered for solvability) and
// the three held-out benchmark suites like the paper's — `hle` (hard multi-domain reasoning),
// `frames` (multi-hop factual retrieval) and `tau2` (agentic record-store tasks judged by database
// state). The suites are NOT filtered, as the paper's are not; their difficulty shifts are calibrated
// so the paper's baselines land near its Table 1 (docs/SIMULATION.md, `npm run cli -- calibrate`).

import type { Domain, StepType } from './stepTypes';
import { DOMAINS } from './stepTypes';
import { ownGet } from '../names';

export interface Suite {
  name: string;
  description: string;
  /** Relative weight of each domain's template. */
  domains: Partial<Record<Domain, number>>;
  /** Added to every step's mean difficulty, per step type. */
  shift: Partial<Record<StepType, number>>;
  /** Chance that a step of this type needs a tool (overrides the domain's). */
  needsTool: Partial<Record<StepType, number>>;
  /** A per-task difficulty offset drawn uniformly from these levels (the pool spans easy to expert tasks). */
  levels?: readonly number[];
  /** Step types this suite's tasks leave out of their templates. */
  dropTypes?: readonly StepType[];
  /** Whether generation drops unsolvable and tool-free tasks (the training pool only). */
  filtered: boolean;
}

export const TRAINING_SUITE: Suite = {
  name: 'toolscale',
  description: 'ToolScale-lite training pool: all six domains from easy to expert level, filtered (solvable at pass@8, not solvable without tools)',
  domains: Object.fromEntries(DOMAINS.map((d) => [d, 1])),
  shift: {},
  levels: [-0.5, 0, 0.75, 1.5],
  needsTool: {},
  filtered: true,
};

export const SUITES: Readonly<Record<string, Suite>> = {
  hle: {
    name: 'hle',
    description: "Humanity's-Last-Exam-like: expert reasoning in science, maths and code; unfiltered",
    domains: { science: 3, math: 1, code: 1 },
    shift: { reason: 1.5, compute: -1, code: 1.1 },
    needsTool: { compute: 0.15 },
    filtered: false,
  },
  frames: {
    name: 'frames',
    description: 'FRAMES-like: multi-hop factual questions over encyclopaedic facts, some of them fresh; unfiltered',
    domains: { multihop: 1 },
    shift: { retrieve: -0.5, reason: -0.3 },
    needsTool: { retrieve: 0.03 },
    dropTypes: ['lookup'],
    filtered: false,
  },
  tau2: {
    name: 'tau2',
    description: 'τ²-Bench-like: customer-service actions on a record store, judged by the final database state; unfiltered',
    domains: { agentic: 1 },
    shift: { lookup: -0.2, act: -0.5 },
    needsTool: {},
    filtered: false,
  },
};

export const SUITE_NAMES = Object.keys(SUITES);

/** A suite by name (undefined = the training pool). */
export function suiteByName(name: string | undefined): Suite {
  if (name === undefined) return TRAINING_SUITE;
  const s = ownGet(SUITES, name);
  if (!s) throw new Error(`unknown suite "${name}" (known: ${SUITE_NAMES.join(', ')})`);
  return s;
}
