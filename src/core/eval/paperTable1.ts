// The paper's numbers the lab's world is calibrated to and compared with: ToolOrchestra
// (arXiv 2511.21689) Table 1 — accuracy on HLE / FRAMES / τ²-Bench, cost in US cents and latency
// in minutes per query averaged over HLE and FRAMES, for each row the lab can play (the Claude rows:
// its basic-tools row beside the lab's tools+claude-opus-4.1, its all-tools row beside prompted:claude-opus-4.1).

import { DEFAULT_TRAIN } from '../grpo/config';
import { SHIPPED_RECIPE } from '../grpo/recipe';
import { PREFERENCE_PART } from '../grpo/rewardModes';

export interface PaperRow {
  /** The lab's policy that stands for this row. */
  policy: string;
  label: string;
  accuracy: { hle: number; frames: number; tau2: number | null };
  costCents: number;
  latencyMin: number;
}

export const PAPER_TABLE1: readonly PaperRow[] = [
  { policy: 'orchestrator', label: 'Orchestrator-8B', accuracy: { hle: 37.1, frames: 76.3, tau2: 80.2 }, costCents: 9.2, latencyMin: 8.2 },
  { policy: 'tools+gpt-5', label: 'GPT-5, basic tools', accuracy: { hle: 35.1, frames: 74.0, tau2: 77.7 }, costCents: 30.2, latencyMin: 19.8 },
  { policy: 'prompted:gpt-5', label: 'GPT-5, all tools (prompted)', accuracy: { hle: 21.2, frames: 57.5, tau2: 62.3 }, costCents: 17.8, latencyMin: 13.6 },
  { policy: 'tools+claude-opus-4.1', label: 'Claude Opus 4.1, basic tools',
    accuracy: { hle: 19.8, frames: 63.5, tau2: 46.0 }, costCents: 76.2, latencyMin: 32.5 },
  { policy: 'prompted:claude-opus-4.1', label: 'Claude Opus 4.1, all tools (prompted)',
    accuracy: { hle: 34.6, frames: 72.8, tau2: 76.8 }, costCents: 52.5, latencyMin: 25.6 },
  { policy: 'prompted:qwen3-8b', label: 'Qwen3-8B, all tools (prompted)',
    accuracy: { hle: 30.6, frames: 68.9, tau2: 72.3 }, costCents: 27.6, latencyMin: 18.3 },
  { policy: 'notools:gpt-5', label: 'GPT-5, no tools', accuracy: { hle: 23.4, frames: 66.3, tau2: null }, costCents: 6.2, latencyMin: 4.1 },
  { policy: 'notools:claude-opus-4.1', label: 'Claude Opus 4.1, no tools',
    accuracy: { hle: 11.7, frames: 58.2, tau2: null }, costCents: 27.4, latencyMin: 8.2 },
  { policy: 'notools:llama-3.3-70b', label: 'Llama-3.3-70B, no tools', accuracy: { hle: 3.8, frames: 32.4, tau2: null }, costCents: 0.5, latencyMin: 1.4 },
];

export const PAPER_SUITES = ['hle', 'frames', 'tau2'] as const;
export type PaperSuite = (typeof PAPER_SUITES)[number];

/** Where the lab departs from the paper, said beside its numbers (REPRODUCTION.md, the first screen, the "Paper vs lab" tab). */
export const DEPARTURES: readonly string[] = [
  `the orchestrator is trained with the lab’s success-first reward, R = outcome·(1 + ${PREFERENCE_PART}·P·M̃/ΣP) with M’s ` +
    'tool dimensions as shares of the calls, not the paper’s R = outcome·P·M̃',
  'its advantage is R − mean (Dr. GRPO), without the paper’s division by the group’s std, and its learning rate falls linearly to 0 over the run',
  'one small policy network (a scorer over slot descriptors), not an 8B language model; ' +
    `${SHIPPED_RECIPE.iterations} iterations of ${DEFAULT_TRAIN.batchTasks} tasks × ${DEFAULT_TRAIN.groupSize} rollouts`,
  'tasks of 1 to 5 steps and a training budget of 4 to 40 turns (12 at evaluation), not up to 50; costs and ' +
    'latencies are smaller in absolute terms, their ratios are what is compared',
  'Claude Opus 4.1 costs and latencies: at its published prices one token model cannot give both the paper’s cost ' +
    'and its latency ratios (docs/SIMULATION.md)',
];
