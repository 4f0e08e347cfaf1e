// The shipped catalogs. `toolorchestra`: the paper's tool set with its published prices and
// latencies (ToolOrchestra paper, tools table; see docs/CATALOG.md). Skills are calibrated so the
// paper's baselines land near its Table 1 on the three suites (`npm run cli -- calibrate`), and the
// qualitative facts of docs/DESIGN.md §2 hold (test/catalogFacts.test.ts); calibrations are the AUROC
// of each tool's stated confidence (weak for models, sharp for execution; docs/SIMULATION.md). `seed-004`: the toy table of the second seed note, in cost units.

import type { Catalog, ToolSpec } from './catalog';
import { ownGet } from '../names';

type ToolInit = Omit<ToolSpec, 'enabled' | 'pricing' | 'latency' | 'argument'> & {
  pricing: Partial<ToolSpec['pricing']>;
  latency: Partial<ToolSpec['latency']> & { fixedMs: number };
  argument?: ToolSpec['argument'];
};

function tool(t: ToolInit): ToolSpec {
  return {
    ...t,
    enabled: true,
    pricing: { inputPerM: 0, outputPerM: 0, perCall: 0, perSecond: 0, ...t.pricing },
    latency: { tokensPerSecond: 0, jitter: 0.25, ...t.latency },
    argument: t.argument ?? { name: 'prompt', description: 'The sub-question and the context it needs.' },
  };
}

const QUERY = { name: 'query', description: 'What to search for.' };

const TOOLORCHESTRA: Catalog = {
  name: 'toolorchestra',
  currency: 'USD',
  orchestrator: {
    id: 'qwen3-8b',
    description: 'Qwen3-8B, the orchestrator itself: reads the context and decides each turn.',
    pricing: { inputPerM: 0.2, outputPerM: 0.2 },
    outputTokensPerTurn: 150,
    latency: { fixedMs: 300, tokensPerSecond: 150 },
    skill: { retrieve: -1.5, compute: -0.2, reason: 0.2, code: 0, lookup: -0.8, act: 0.3 },
  },
  tools: [
    tool({
      id: 'gpt-5',
      kind: 'generalist',
      description: 'Frontier generalist reasoner; best on hard reasoning and code, most expensive per token after Claude.',
      pricing: { inputPerM: 1.25, outputPerM: 10 },
      outputTokens: { mean: 2500, spread: 0.35 },
      latency: { fixedMs: 4000, tokensPerSecond: 60 },
      skill: { retrieve: 7.5, compute: 2.2, reason: 2.9, code: 2.7, lookup: 0.8, act: 2.6 },
      calibration: 0.7,
    }),
    tool({
      id: 'gpt-5-mini',
      kind: 'generalist',
      description: 'Smaller GPT-5: good general reasoning at a fifth of the price.',
      pricing: { inputPerM: 0.25, outputPerM: 2 },
      outputTokens: { mean: 1800, spread: 0.35 },
      latency: { fixedMs: 3000, tokensPerSecond: 90 },
      skill: { retrieve: 3, compute: 1.2, reason: 1.0, code: 1.2, lookup: 0.5, act: 1.2 },
      calibration: 0.66,
    }),
    tool({
      id: 'claude-opus-4.1',
      kind: 'generalist',
      description: 'Expensive frontier generalist; strong reasoning and agentic actions.',
      pricing: { inputPerM: 15, outputPerM: 75 },
      outputTokens: { mean: 300, spread: 0.35 },
      latency: { fixedMs: 2700, tokensPerSecond: 45 },
      skill: { retrieve: 7, compute: 2.0, reason: 2.8, code: 2.8, lookup: 0.8, act: 2.8 },
      calibration: 0.7,
    }),
    tool({
      id: 'qwen3-32b',
      kind: 'generalist',
      description: 'Open 32B generalist: cheap, fast, middling reasoning.',
      pricing: { inputPerM: 0.8, outputPerM: 0.8 },
      outputTokens: { mean: 900, spread: 0.35 },
      latency: { fixedMs: 1000, tokensPerSecond: 100 },
      skill: { retrieve: 2.5, compute: 0.9, reason: 0.8, code: 1.1, lookup: 0.3, act: 1.0 },
      calibration: 0.62,
    }),
    tool({
      id: 'llama-3.3-70b',
      kind: 'generalist',
      description: 'Open 70B generalist: cheap, slower than Qwen3-32B, similar quality.',
      pricing: { inputPerM: 0.9, outputPerM: 0.9 },
      outputTokens: { mean: 900, spread: 0.35 },
      latency: { fixedMs: 1500, tokensPerSecond: 65 },
      skill: { retrieve: 3.5, compute: 0.7, reason: 0.6, code: 0.8, lookup: 0.3, act: 0.9 },
      calibration: 0.6,
    }),
    tool({
      id: 'qwen2.5-math-72b',
      kind: 'specialist',
      description: 'Math specialist: strong on calculation and mathematical reasoning.',
      pricing: { inputPerM: 0.9, outputPerM: 0.9 },
      outputTokens: { mean: 900, spread: 0.35 },
      latency: { fixedMs: 1500, tokensPerSecond: 78 },
      skill: { compute: 2.4, reason: 1.3 },
      calibration: 0.66,
    }),
    tool({
      id: 'qwen2.5-math-7b',
      kind: 'specialist',
      description: 'Small math specialist: very cheap, decent on calculation.',
      pricing: { inputPerM: 0.2, outputPerM: 0.2 },
      outputTokens: { mean: 700, spread: 0.35 },
      latency: { fixedMs: 1000, tokensPerSecond: 88 },
      skill: { compute: 1.8, reason: 0.9 },
      calibration: 0.62,
    }),
    tool({
      id: 'qwen2.5-coder-32b',
      kind: 'specialist',
      description: 'Code specialist: writes programs that pass tests.',
      pricing: { inputPerM: 0.8, outputPerM: 0.8 },
      outputTokens: { mean: 800, spread: 0.35 },
      latency: { fixedMs: 1000, tokensPerSecond: 100 },
      skill: { code: 2.2, compute: 1.2, reason: 0.8 },
      calibration: 0.65,
    }),
    tool({
      id: 'web-search',
      kind: 'basic',
      description: 'Web search (Tavily): fresh facts; $0.01 per call.',
      pricing: { perCall: 0.01 },
      outputTokens: { mean: 400, spread: 0.2 },
      latency: { fixedMs: 1500 },
      skill: { retrieve: 3.0, lookup: 1.0 },
      context: { retrieve: 2, reason: 0.5, lookup: 1 },
      calibration: 0.8,
      argument: QUERY,
    }),
    tool({
      id: 'local-search',
      kind: 'basic',
      description: 'Local search over an indexed encyclopaedic document set and the record store (Faiss + embeddings); no fresh facts.',
      pricing: { perCall: 0.0001 },
      outputTokens: { mean: 300, spread: 0.2 },
      latency: { fixedMs: 600 },
      skill: { retrieve: 2.8, lookup: 3.0 },
      context: { retrieve: 1.5, lookup: 2, reason: 0.3, act: 1 },
      offline: ['retrieve'],
      calibration: 0.8,
      argument: QUERY,
    }),
    tool({
      id: 'code-interpreter',
      kind: 'basic',
      description: 'Python sandbox: exact computation; $0.0000083 per second of run time.',
      pricing: { perSecond: 0.0000083 },
      outputTokens: { mean: 100, spread: 0.2 },
      latency: { fixedMs: 2000, jitter: 0.5 },
      skill: { compute: 6.0 },
      context: { compute: 2, reason: 0.5, code: 1.5 },
      calibration: 0.97,
      argument: { name: 'code', description: 'Python source to run.' },
    }),
    tool({
      id: 'calculator',
      kind: 'basic',
      description: 'Calculator: exact arithmetic, free and instant.',
      outputTokens: { mean: 20, spread: 0 },
      pricing: {},
      latency: { fixedMs: 10, jitter: 0.1 },
      skill: { compute: 4.5 },
      context: { compute: 2 },
      calibration: 0.98,
      argument: { name: 'expression', description: 'An arithmetic expression.' },
    }),
  ],
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
  },
  tools: [
    tool({
      id: 'calculator',
      kind: 'basic',
      description: 'Calculator: 0.1 cost units, 10 ms.',
      pricing: { perCall: 0.1 },
      outputTokens: { mean: 20, spread: 0 },
      latency: { fixedMs: 10, jitter: 0 },
      skill: { compute: 4.5 },
      calibration: 0.98,
      argument: { name: 'expression', description: 'An arithmetic expression.' },
    }),
    tool({
      id: 'search',
      kind: 'basic',
      description: 'Search: 1.0 cost units, 500 ms.',
      pricing: { perCall: 1.0 },
      outputTokens: { mean: 300, spread: 0 },
      latency: { fixedMs: 500, jitter: 0 },
      skill: { retrieve: 3.0, lookup: 2.5 },
      context: { reason: 1 },
      calibration: 0.8,
      argument: QUERY,
    }),
    tool({
      id: 'code-executor',
      kind: 'basic',
      description: 'Code executor: 0.5 cost units, 100 ms.',
      pricing: { perCall: 0.5 },
      outputTokens: { mean: 100, spread: 0 },
      latency: { fixedMs: 100, jitter: 0 },
      skill: { compute: 6.0, code: 2.0 },
      context: { reason: 1, code: 1 },
      calibration: 0.95,
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
