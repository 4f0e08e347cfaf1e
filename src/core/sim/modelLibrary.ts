// Every model and basic tool the lab knows, in one place: the paper's tool set (ToolOrchestra §4.1),
// the models of its baselines (Claude Opus 4.1) and the models its Table 2 swaps in (§6.3). Catalog
// presets pick from here (presets.ts), the baselines driven by a model outside the catalog find its
// spec here, and the lab's editor adds any of them. Prices are the providers' list prices per million
// tokens; skills and writing abilities are set from public figures so the paper's baselines land near
// its tables (docs/SIMULATION.md gives each figure and its source; `npm run cli -- calibrate`).

import type { ToolSpec } from './catalog';

type Init = Omit<ToolSpec, 'enabled' | 'pricing' | 'latency' | 'argument' | 'outputTokens'> & {
  pricing: Partial<ToolSpec['pricing']>;
  latency: Partial<ToolSpec['latency']> & { fixedMs: number };
  outputTokens?: ToolSpec['outputTokens'];
  argument?: ToolSpec['argument'];
};

function spec(t: Init): ToolSpec {
  return {
    ...t,
    enabled: true,
    pricing: { inputPerM: 0, outputPerM: 0, perCall: 0, perSecond: 0, ...t.pricing },
    outputTokens: t.outputTokens ?? { mean: 1000, spread: 0.35 },
    latency: { tokensPerSecond: 0, jitter: 0.25, ...t.latency },
    argument: t.argument ?? { name: 'prompt', description: 'The question and the context gathered so far.' },
  };
}

const QUERY = { name: 'query', description: 'What to search for.' };
const CODE = { name: 'code', description: 'Python source to run.' };

const LIBRARY: readonly ToolSpec[] = [
  // The paper's generalists (answerers, and writers where its harness lets them write).
  spec({
    id: 'gpt-5', kind: 'generalist', calibration: 0.7,
    description: 'Frontier reasoning model: the strongest answerer on hard questions, slow and dear; writes queries and programs.',
    pricing: { inputPerM: 1.25, outputPerM: 10 }, outputTokens: { mean: 2500, spread: 0.35 }, latency: { fixedMs: 4000, tokensPerSecond: 60 },
    skill: { retrieve: 8.5, compute: 2.4, reason: 3.15, code: 2.9, lookup: 1.2, act: 3.1 }, writes: { query: 2.6, code: 3.2 },
  }),
  spec({
    id: 'gpt-5-mini', kind: 'generalist', calibration: 0.66,
    description: 'Smaller GPT-5 at a fifth of the price: a good writer of queries and programs, a weaker answerer on hard questions.',
    pricing: { inputPerM: 0.25, outputPerM: 2 }, outputTokens: { mean: 1800, spread: 0.35 }, latency: { fixedMs: 3000, tokensPerSecond: 90 },
    skill: { retrieve: 3, compute: 1.9, reason: 2.3, code: 2.3, lookup: 1.1, act: 3.0 }, writes: { query: 2.5, code: 2.8 },
  }),
  spec({
    id: 'qwen3-32b', kind: 'generalist', calibration: 0.62,
    description: 'Open 32B generalist: cheap and fast; writes good search queries, answers hard questions poorly.',
    pricing: { inputPerM: 0.8, outputPerM: 0.8 }, outputTokens: { mean: 900, spread: 0.35 }, latency: { fixedMs: 1000, tokensPerSecond: 100 },
    skill: { retrieve: 2.5, compute: 0.9, reason: 0.8, code: 1.1, lookup: 0.3, act: 1.0 }, writes: { query: 2.3 },
  }),
  spec({
    id: 'llama-3.3-70b', kind: 'generalist', calibration: 0.6,
    description: 'Open 70B generalist: cheap, slower than Qwen3-32B; answers only.',
    pricing: { inputPerM: 0.9, outputPerM: 0.9 }, outputTokens: { mean: 900, spread: 0.35 }, latency: { fixedMs: 1500, tokensPerSecond: 65 },
    skill: { retrieve: 3.5, compute: 0.7, reason: 0.6, code: 0.8, lookup: 0.3, act: 0.9 },
  }),
  spec({
    id: 'qwen2.5-math-72b', kind: 'specialist', calibration: 0.66,
    description: 'Maths specialist: answers calculations and mathematical reasoning.',
    pricing: { inputPerM: 0.9, outputPerM: 0.9 }, outputTokens: { mean: 900, spread: 0.35 }, latency: { fixedMs: 1500, tokensPerSecond: 78 },
    skill: { compute: 2.4, reason: 1.3 },
  }),
  spec({
    id: 'qwen2.5-math-7b', kind: 'specialist', calibration: 0.62,
    description: 'Small maths specialist: very cheap, decent on calculation.',
    pricing: { inputPerM: 0.2, outputPerM: 0.2 }, outputTokens: { mean: 700, spread: 0.35 }, latency: { fixedMs: 1000, tokensPerSecond: 88 },
    skill: { compute: 1.8, reason: 0.9 },
  }),
  spec({
    id: 'qwen2.5-coder-32b', kind: 'specialist', calibration: 0.65,
    description: 'Code specialist: writes programs for the code interpreter.',
    pricing: { inputPerM: 0.8, outputPerM: 0.8 }, outputTokens: { mean: 800, spread: 0.35 }, latency: { fixedMs: 1000, tokensPerSecond: 100 },
    skill: {}, writes: { code: 2.6 },
  }),
  // The baselines' model, and the models of the paper's Table 2 (never in the training catalog).
  spec({
    id: 'claude-opus-4.1', kind: 'generalist', calibration: 0.7,
    description: 'Anthropic’s frontier model: very dear; strong on agentic actions, weaker than GPT-5 on the hardest reasoning.',
    pricing: { inputPerM: 15, outputPerM: 75 }, outputTokens: { mean: 700, spread: 0.35 }, latency: { fixedMs: 2700, tokensPerSecond: 45 },
    skill: { retrieve: 8.5, compute: 1.3, reason: 1.7, code: 2.2, lookup: 0.8, act: 0.8 }, writes: { query: 2.6, code: 2.7 },
  }),
  spec({
    id: 'claude-sonnet-4.1', kind: 'generalist', calibration: 0.68,
    description: 'Anthropic’s mid-size model: writes code well, answers at a fifth of Opus’s price.',
    pricing: { inputPerM: 3, outputPerM: 15 }, outputTokens: { mean: 800, spread: 0.35 }, latency: { fixedMs: 2000, tokensPerSecond: 60 },
    skill: { retrieve: 5.5, compute: 1.4, reason: 1.8, code: 2.4, lookup: 0.6, act: 2.2 }, writes: { code: 2.6 },
  }),
  spec({
    id: 'o3-mini', kind: 'generalist', calibration: 0.68,
    description: 'Small reasoning model: writes search queries (a query writer in the paper’s Table 2).',
    pricing: { inputPerM: 1.1, outputPerM: 4.4 }, outputTokens: { mean: 2000, spread: 0.35 }, latency: { fixedMs: 2000, tokensPerSecond: 90 },
    skill: {}, writes: { query: 2.3 },
  }),
  spec({
    id: 'gpt-4o', kind: 'generalist', calibration: 0.65,
    description: 'Non-reasoning GPT-4o: writes search queries (a query writer in the paper’s Table 2).',
    pricing: { inputPerM: 2.5, outputPerM: 10 }, outputTokens: { mean: 600, spread: 0.35 }, latency: { fixedMs: 1500, tokensPerSecond: 80 },
    skill: {}, writes: { query: 2.2 },
  }),
  spec({
    id: 'codestral-22b', kind: 'specialist', calibration: 0.62,
    description: 'Mistral’s 22B code model: cheap programs for the interpreter.',
    pricing: { inputPerM: 0.3, outputPerM: 0.9 }, outputTokens: { mean: 700, spread: 0.35 }, latency: { fixedMs: 800, tokensPerSecond: 110 },
    skill: {}, writes: { code: 2.1 },
  }),
  spec({
    id: 'openmath-llama-2-70b', kind: 'specialist', calibration: 0.62,
    description: 'NVIDIA’s OpenMath on Llama-2-70B: answers school and competition maths.',
    pricing: { inputPerM: 0.9, outputPerM: 0.9 }, outputTokens: { mean: 700, spread: 0.35 }, latency: { fixedMs: 1500, tokensPerSecond: 60 },
    skill: { compute: 1.9, reason: 0.9 },
  }),
  spec({
    id: 'deepseek-math-7b', kind: 'specialist', calibration: 0.6,
    description: 'DeepSeek-Math-7B: a small maths answerer.',
    pricing: { inputPerM: 0.2, outputPerM: 0.2 }, outputTokens: { mean: 600, spread: 0.35 }, latency: { fixedMs: 1000, tokensPerSecond: 90 },
    skill: { compute: 1.5, reason: 0.6 },
  }),
  spec({
    id: 'gemma-3-27b', kind: 'generalist', calibration: 0.6,
    description: 'Google’s open Gemma-3-27B: a cheap generalist answerer.',
    pricing: { inputPerM: 0.1, outputPerM: 0.2 }, outputTokens: { mean: 800, spread: 0.35 }, latency: { fixedMs: 1000, tokensPerSecond: 80 },
    skill: { retrieve: 2.5, compute: 0.8, reason: 0.7, code: 0.9, lookup: 0.3, act: 0.9 },
  }),
  // Basic tools: they run what a writer wrote, and their results are evidence for the answer.
  spec({
    id: 'web-search', kind: 'basic', calibration: 0.8, runs: 'query', argument: QUERY,
    description: 'Web search (Tavily): runs a written query on the live web, fresh facts included; $0.01 per call.',
    pricing: { perCall: 0.01 }, outputTokens: { mean: 400, spread: 0.2 }, latency: { fixedMs: 1500 },
    skill: { retrieve: 3.0, reason: 1.5 }, context: { retrieve: 4, reason: 0.8 },
  }),
  spec({
    id: 'local-search', kind: 'basic', calibration: 0.8, runs: 'query', argument: QUERY, offline: ['retrieve'],
    description: 'Local search over an encyclopaedic document index and the record store (Faiss + embeddings): no fresh facts.',
    pricing: { perCall: 0.0001 }, outputTokens: { mean: 300, spread: 0.2 }, latency: { fixedMs: 600 },
    skill: { retrieve: 2.6, lookup: 4.0, reason: 1.2, act: 3.0 }, context: { retrieve: 4, lookup: 4, reason: 0.6, act: 1 },
  }),
  spec({
    id: 'code-interpreter', kind: 'basic', calibration: 0.97, runs: 'code', argument: CODE,
    description: 'Python sandbox: runs a written program exactly; $0.0000083 per second of run time.',
    pricing: { perSecond: 0.0000083 }, outputTokens: { mean: 100, spread: 0.2 }, latency: { fixedMs: 6000, jitter: 0.7 },
    skill: { compute: 6.0, code: 4.0, reason: 3.0 }, context: { compute: 4, code: 2.5, reason: 1.0 },
  }),
];

const BY_ID = new Map(LIBRARY.map((t) => [t.id, t]));

/** Every id the library holds, in its order. */
export const LIBRARY_IDS: readonly string[] = LIBRARY.map((t) => t.id);

/** A deep copy of a library entry (enabled), or undefined for an id it does not hold. */
export function libraryTool(id: string): ToolSpec | undefined {
  const t = BY_ID.get(id);
  return t ? structuredClone(t) : undefined;
}

/** Deep copies of the named entries, in the given order; an unknown id throws (a preset's own list). */
export function libraryTools(ids: readonly string[]): ToolSpec[] {
  return ids.map((id) => {
    const t = libraryTool(id);
    if (!t) throw new Error(`the model library has no "${id}"`);
    return t;
  });
}
