// Tool catalogs: what a tool is (ToolSpec), what the orchestrator itself costs, and the derived
// quantities every other module needs (expected cost and latency of a call, the OpenAI
// function-calling schema). Presets live in presets.ts; validation of user JSON in catalogSchema.ts.

import type { StepType, ToolKind } from './stepTypes';

export interface Pricing {
  /** Price per million input tokens (catalog currency). */
  inputPerM: number;
  /** Price per million output tokens. */
  outputPerM: number;
  /** Fixed fee per call (e.g. a search API). */
  perCall: number;
  /** Price per second of run time (e.g. a code sandbox). */
  perSecond: number;
}

export interface LatencyModel {
  /** Fixed time per call in ms (network, time to first token). */
  fixedMs: number;
  /** Generation speed; 0 means output tokens add no time (basic tools). */
  tokensPerSecond: number;
  /** Standard deviation of the log of the latency multiplier. */
  jitter: number;
}

export interface OutputTokens {
  /** Median number of output tokens of one call. */
  mean: number;
  /** Standard deviation of the log of the token multiplier. */
  spread: number;
}

export interface ToolSpec {
  /** Stable lowercase id used everywhere: CLI, URL, exports. */
  id: string;
  kind: ToolKind;
  description: string;
  enabled: boolean;
  pricing: Pricing;
  outputTokens: OutputTokens;
  latency: LatencyModel;
  /** IRT ability per step type; a missing type means the tool cannot answer that step. */
  skill: Partial<Record<StepType, number>>;
  /**
   * Logit boost its result gives later model calls on a step of this type (a search result or a
   * program's output in the context). A type listed here but not in `skill` can be called for
   * that context only: the call returns evidence, not an answer.
   */
  context?: Partial<Record<StepType, number>>;
  /**
   * Step types on which this basic tool answers from a fixed index, like a model from its weights
   * (local search is not the live web): a step of the type that needs a tool is out of its reach.
   */
  offline?: StepType[];
  /** AUROC of its confidence for telling its right answers from its wrong ones: 0.5 = noise, 1 = exact. */
  calibration: number;
  /** Name and meaning of the single string argument the tool takes. */
  argument: { name: string; description: string };
}

/** The orchestrator's own model: what each of its turns costs and what it solves alone. */
export interface OrchestratorSpec {
  id: string;
  description: string;
  pricing: Pick<Pricing, 'inputPerM' | 'outputPerM'>;
  /** Output tokens the orchestrator writes per turn, routing or answering (deterministic). */
  outputTokensPerTurn: number;
  /** Time per turn: fixedMs + outputTokensPerTurn / tokensPerSecond. */
  latency: Pick<LatencyModel, 'fixedMs' | 'tokensPerSecond'>;
  skill: Partial<Record<StepType, number>>;
}

export interface Catalog {
  name: string;
  /** 'USD' for real prices, 'units' for abstract cost units (seed-004). */
  currency: 'USD' | 'units';
  orchestrator: OrchestratorSpec;
  tools: ToolSpec[];
}

/** Latency of a call that produced `outTokens`, before jitter (ms). */
export function baseLatencyMs(latency: LatencyModel | OrchestratorSpec['latency'], outTokens: number): number {
  const tps = latency.tokensPerSecond;
  return latency.fixedMs + (tps > 0 ? (1000 * outTokens) / tps : 0);
}

/** Cost of one call with the given token counts and duration. */
export function callCost(pricing: Pricing, inTokens: number, outTokens: number, latencyMs: number): number {
  return (
    (pricing.inputPerM * inTokens + pricing.outputPerM * outTokens) / 1e6 +
    pricing.perCall +
    (pricing.perSecond * latencyMs) / 1000
  );
}

/** Expected cost of one call at a context of `inTokens` (median tokens, no jitter). */
export function expectedCallCost(tool: ToolSpec, inTokens: number): number {
  const out = tool.outputTokens.mean;
  return callCost(tool.pricing, inTokens, out, baseLatencyMs(tool.latency, out));
}

export function expectedLatencyMs(tool: ToolSpec): number {
  return baseLatencyMs(tool.latency, tool.outputTokens.mean);
}

/** Whether the tool can be called on a step of this type: to answer it, or to bring context to it. */
export function canDo(tool: ToolSpec, type: StepType): boolean {
  return tool.enabled && (tool.skill[type] !== undefined || tool.context?.[type] !== undefined);
}

/** Whether the tool can answer a step of this type (not only bring context to it). */
export function canAnswer(tool: ToolSpec, type: StepType): boolean {
  return tool.enabled && tool.skill[type] !== undefined;
}

/**
 * Who drives an episode: writes every turn, and answers a step submitted with no attempt. The
 * catalog's orchestrator drives the trained policy and the routing baselines; a catalog model
 * drives the paper's "model X with tools / without tools / as a prompted orchestrator" rows.
 */
export interface Driver {
  id: string;
  pricing: Pick<Pricing, 'inputPerM' | 'outputPerM'>;
  /** Output tokens of a routing turn (a call, or committing an attempt). */
  turnTokens: number;
  /** Output tokens of a turn in which it answers a step itself. */
  answerTokens: number;
  latency: Pick<LatencyModel, 'fixedMs' | 'tokensPerSecond'>;
  skill: Partial<Record<StepType, number>>;
  /**
   * It answers the whole question in one generation (a model without tools: one call, as in the
   * paper's no-tool rows): only the first step it answers itself costs an answer turn.
   */
  answersAtOnce?: boolean;
}

/** The catalog's own orchestrator as the driver: every turn, routing or answering, writes outputTokensPerTurn. */
export function orchestratorDriver(o: OrchestratorSpec): Driver {
  return { id: o.id, pricing: o.pricing, turnTokens: o.outputTokensPerTurn, answerTokens: o.outputTokensPerTurn, latency: o.latency, skill: o.skill };
}

/** A catalog model as the driver: it answers with its full output and reasons for `turnShare` of that on every routing turn. */
export function modelDriver(t: ToolSpec, turnShare: number): Driver {
  return {
    id: t.id,
    pricing: { inputPerM: t.pricing.inputPerM, outputPerM: t.pricing.outputPerM },
    turnTokens: Math.round(t.outputTokens.mean * turnShare),
    answerTokens: t.outputTokens.mean,
    latency: { fixedMs: t.latency.fixedMs, tokensPerSecond: t.latency.tokensPerSecond },
    skill: t.skill,
  };
}

/** Cost of one driver turn that reads `inTokens` and writes `outTokens`. */
export function driverTurnCost(d: Driver, inTokens: number, outTokens: number): number {
  return (d.pricing.inputPerM * inTokens + d.pricing.outputPerM * outTokens) / 1e6;
}

export function driverTurnLatencyMs(d: Driver, outTokens: number): number {
  return baseLatencyMs(d.latency, outTokens);
}

/** OpenAI function names allow [a-zA-Z0-9_-]; ids may hold dots ("claude-opus-4.1"). */
export function functionName(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/** The tool as an OpenAI function-calling tool definition. */
export function functionSchema(tool: ToolSpec): object {
  return {
    type: 'function',
    function: {
      name: functionName(tool.id),
      description: tool.description,
      parameters: {
        type: 'object',
        properties: { [tool.argument.name]: { type: 'string', description: tool.argument.description } },
        required: [tool.argument.name],
      },
    },
  };
}

export function toolIndex(catalog: Catalog, id: string): number {
  return catalog.tools.findIndex((t) => t.id === id);
}

/** Formats an amount in the catalog's currency. */
export function formatCost(catalog: Pick<Catalog, 'currency'>, x: number): string {
  if (catalog.currency === 'units') return `${x.toFixed(3)} u`;
  return x >= 0.1 ? `$${x.toFixed(2)}` : `$${x.toFixed(4)}`;
}
