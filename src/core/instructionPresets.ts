// Instruction presets: a natural-language preference and its vector P (ToolOrchestra appends the
// instruction to the question and samples P with it). "Avoid API calls" follows the paper's
// example (App. F): prefer local search and the open models, weight 0 on everything else —
// outcome included: the outcome gate already makes a failure worth nothing. Budget and Fast put the
// objective they name at 1 and the other at a quarter: with it at 0, Fast bought slow GPT-5 answers
// and came out slower than the default P (docs/REPRODUCTION.md, "The presets, and which seed is
// shipped"). Training with random preferences samples these vectors too (preference.ts), so one
// policy follows each of them.

import type { Catalog } from './sim/catalog';
import type { Preference } from './preference';

export interface InstructionPreset {
  name: string;
  instruction: string;
  preference(catalog: Catalog): Preference;
  /** What the trade-off view shows the preset working on: cost, latency, or the share of calls to paid APIs. */
  axis: 'cost' | 'latencyS' | 'apiShare';
}

/** Paid APIs: the closed models and the web search API (the paper's "API calls"). */
export const isApi = (id: string): boolean => /^(gpt|claude|o\d|web-search|search$)/.test(id);

export const INSTRUCTION_PRESETS: readonly InstructionPreset[] = [
  { name: 'Accuracy first', instruction: 'Get it right; cost and time do not matter.',
    preference: () => ({ outcome: 1, cost: 0, latency: 0, tools: {} }), axis: 'cost' },
  { name: 'Budget', instruction: 'Solve it as cheaply as you can.', preference: () => ({ outcome: 1, cost: 1, latency: 0.25, tools: {} }), axis: 'cost' },
  { name: 'Fast', instruction: 'I need the answer quickly.', preference: () => ({ outcome: 1, cost: 0.25, latency: 1, tools: {} }), axis: 'latencyS' },
  {
    name: 'Avoid API calls',
    instruction: 'Avoid API calling as much as possible.',
    preference: (catalog) => ({ outcome: 0, cost: 0, latency: 0, tools: Object.fromEntries(catalog.tools.filter((t) => !isApi(t.id)).map((t) => [t.id, 1])) }),
    axis: 'apiShare',
  },
];
