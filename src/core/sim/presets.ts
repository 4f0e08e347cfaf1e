// The shipped catalogs. `toolorchestra`: the paper's tool set (ToolOrchestra §4.1) at its published
// prices and latencies, from the model library (modelLibrary.ts): three basic tools, the code and maths
// specialists and the generalists GPT-5, GPT-5-mini, Llama-3.3-70B and Qwen3-32B; Claude Opus 4.1 is
// a baseline there, not a tool (the editor can add it). Its orchestrator, Qwen3-8B, writes no query
// or program itself: as in the paper's harness it picks a model for each. `seed-004`: the toy table
// of the second seed note, in cost units, whose orchestrator writes its own queries and programs.

import type { Catalog, ToolSpec } from './catalog';
import { libraryTools } from './modelLibrary';
import { ownGet } from '../names';

/** A basic tool of a toy catalog: enabled, with no token prices. */
function basic(t: Omit<ToolSpec, 'enabled' | 'kind' | 'pricing' | 'latency'> & { pricing: Partial<ToolSpec['pricing']>;
  latency: Partial<ToolSpec['latency']> & { fixedMs: number } }): ToolSpec {
  return {
    ...t, kind: 'basic', enabled: true,
    pricing: { inputPerM: 0, outputPerM: 0, perCall: 0, perSecond: 0, ...t.pricing },
    latency: { tokensPerSecond: 0, jitter: 0.25, ...t.latency },
  };
}

/** The paper's orchestrator tool set, in the order the lab lists it. */
export const TOOLORCHESTRA_TOOLS = ['gpt-5', 'gpt-5-mini', 'qwen3-32b', 'llama-3.3-70b', 'qwen2.5-math-72b',
  'qwen2.5-math-7b', 'qwen2.5-coder-32b', 'web-search', 'local-search', 'code-interpreter'] as const;

const TOOLORCHESTRA: Catalog = {
  name: 'toolorchestra',
  currency: 'USD',
  orchestrator: {
    id: 'qwen3-8b',
    description: 'Qwen3-8B, the orchestrator itself: reads the context and decides each turn; delegates writing and answering.',
    pricing: { inputPerM: 0.2, outputPerM: 0.2 },
    outputTokensPerTurn: 400,
    latency: { fixedMs: 300, tokensPerSecond: 150 },
    skill: { retrieve: -1.5, compute: -0.2, reason: 0.2, code: 0, lookup: -0.8, act: 0.3 },
  },
  tools: libraryTools(TOOLORCHESTRA_TOOLS),
};

const SEED_004: Catalog = {
  name: 'seed-004',
  currency: 'units',
  orchestrator: {
    id: 'orchestrator',
    description: 'The orchestrator itself (free in this toy table).',
    pricing: { inputPerM: 0, outputPerM: 0 },
    outputTokensPerTurn: 50,
    latency: { fixedMs: 0, tokensPerSecond: 0 },
    skill: { retrieve: -1.5, compute: -0.5, reason: 1.5, code: -0.5, lookup: -1, act: 0.5 },
    writes: { query: 2, code: 2 },
  },
  tools: [
    basic({
      id: 'calculator', runs: 'code', calibration: 0.98,
      description: 'Calculator: 0.1 cost units, 10 ms.',
      pricing: { perCall: 0.1 }, outputTokens: { mean: 20, spread: 0 }, latency: { fixedMs: 10, jitter: 0 },
      skill: { compute: 4.5 }, context: { compute: 4 },
      argument: { name: 'expression', description: 'An arithmetic expression.' },
    }),
    basic({
      id: 'search', runs: 'query', calibration: 0.8,
      description: 'Search: 1.0 cost units, 500 ms.',
      pricing: { perCall: 1.0 }, outputTokens: { mean: 300, spread: 0 }, latency: { fixedMs: 500, jitter: 0 },
      skill: { retrieve: 3.0, lookup: 2.5, reason: 1 }, context: { retrieve: 4, lookup: 4, reason: 1 },
      argument: { name: 'query', description: 'What to search for.' },
    }),
    basic({
      id: 'code-executor', runs: 'code', calibration: 0.95,
      description: 'Code executor: 0.5 cost units, 100 ms.',
      pricing: { perCall: 0.5 }, outputTokens: { mean: 100, spread: 0 }, latency: { fixedMs: 100, jitter: 0 },
      skill: { compute: 6.0, code: 2.0, reason: 2 }, context: { compute: 4, code: 2.5, reason: 1 },
      argument: { name: 'code', description: 'Source to run.' },
    }),
  ],
};

export const PRESETS: Readonly<Record<string, Catalog>> = {
  toolorchestra: TOOLORCHESTRA,
  'seed-004': SEED_004,
};

export const PRESET_NAMES = Object.keys(PRESETS);

/** The preset of that name (its own entry: never an inherited "__proto__" or "constructor"), or undefined. */
export const presetByName = (name: string): Readonly<Catalog> | undefined => ownGet(PRESETS, name);

/** A deep copy of a preset, safe to edit. */
export function presetCatalog(name: string): Catalog {
  const c = presetByName(name);
  if (!c) throw new Error(`unknown catalog preset "${name}" (known: ${PRESET_NAMES.join(', ')})`);
  return structuredClone(c);
}
