// The catalogs the paper evaluates a trained policy in, besides its training catalog: every model
// replaced by models it never saw (Table 2, §6.3), another provider's prices (Table 4), and the lab's
// own check that the policy reads descriptors: a known model's copy under a new name at a fraction of
// its price. Each returns a new catalog; the basic tools stay as they are.

import type { Catalog } from '../sim/catalog';
import { libraryTools } from '../sim/modelLibrary';

/**
 * The paper's Table 2 model pool (§6.3): query writers Claude Opus 4.1, o3-mini, GPT-4o; code writers
 * Claude Opus 4.1, Claude Sonnet 4.1, Codestral-22B; maths OpenMath-Llama-2-70B, DeepSeek-Math-7B;
 * generalists Claude Opus 4.1, Claude Sonnet 4.1, Gemma-3-27B. No GPT-5.
 */
export const UNSEEN_MODELS = ['claude-opus-4.1', 'claude-sonnet-4.1', 'o3-mini', 'gpt-4o', 'codestral-22b',
  'openmath-llama-2-70b', 'deepseek-math-7b', 'gemma-3-27b'] as const;

/** The catalog with every model replaced by the paper's Table 2 pool (its basic tools kept). */
export function withUnseenModels(catalog: Catalog): Catalog {
  const basic = structuredClone(catalog.tools.filter((t) => t.kind === 'basic'));
  return { ...structuredClone(catalog), name: `${catalog.name}+unseen-models`, tools: [...libraryTools(UNSEEN_MODELS), ...basic] };
}

/** Another provider's price list (Table 4): each model's token prices scaled as a second API provider lists them. */
export function withOtherPricing(catalog: Catalog): Catalog {
  const scale: Record<string, [number, number]> = {
    'gpt-5': [0.8, 0.9], 'gpt-5-mini': [1.2, 1.1], 'qwen3-32b': [0.5, 1.5], 'llama-3.3-70b': [0.7, 0.8],
    'qwen2.5-math-72b': [1.3, 1.3], 'qwen2.5-math-7b': [1.5, 1.5], 'qwen2.5-coder-32b': [0.9, 1.2],
  };
  const c = structuredClone(catalog);
  c.name = `${catalog.name}@provider-b`;
  for (const t of c.tools) {
    const s = Object.hasOwn(scale, t.id) ? scale[t.id] : undefined;
    if (s) t.pricing = { ...t.pricing, inputPerM: t.pricing.inputPerM * s[0], outputPerM: t.pricing.outputPerM * s[1] };
  }
  return c;
}

/** The catalog plus a copy of model `of` under a new id, at `factor` × its token prices (another provider of the same model). */
export function withCheaperCopy(catalog: Catalog, of: string, factor: number): { catalog: Catalog; id: string; of: string } {
  const base = catalog.tools.find((t) => t.id === of);
  if (!base) throw new Error(`withCheaperCopy: no tool "${of}" in catalog "${catalog.name}"`);
  const id = `${of}-b`;
  const copy = { ...structuredClone(base), id, description: `${base.description} (the same model at another provider)`,
    pricing: { ...base.pricing, inputPerM: base.pricing.inputPerM * factor,
    outputPerM: base.pricing.outputPerM * factor } };
  return { catalog: { ...structuredClone(catalog), name: `${catalog.name}+${id}`, tools: [...structuredClone(catalog.tools), copy] }, id, of };
}
