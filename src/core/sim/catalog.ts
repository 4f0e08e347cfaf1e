// Tool catalogs: what a tool is (ToolSpec), what the orchestrator itself costs, and the derived
// quantities every other module needs (expected cost and latency of a call, the OpenAI
// function-calling schema). A catalog's tools are resources: models (that answer, and may write
// queries or programs) and basic tools (that run a query or a program). The actions an episode
// offers are role slots built from them (slots.ts). Presets live in presets.ts; validation of user
// JSON in catalogSchema.ts.

import type { StepType, ToolKind } from './stepTypes';

/** What a model can write for a basic tool to run: a search query, or a program. */
export const WRITER_ROLES = ['query', 'code'] as const;
export type WriterRole = (typeof WRITER_ROLES)[number];

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
  /**
   * IRT ability per step type. A model: how well it answers a step of the type (a missing type: it
   * cannot answer a question with such a step). A basic tool: how well a good query or program run
   * on it finds what a step of the type needs (a missing type: it finds nothing for it).
   */
  skill: Partial<Record<StepType, number>>;
  /** A model's ability as a writer for each role it can fill (absent: it cannot write for it). */
  writes?: Partial<Record<WriterRole, number>>;
  /** A basic tool: what it runs, a query a writer wrote (search) or a program (code). */
  runs?: WriterRole;
  /** A basic tool: the logit lift its result gives the answer on a step of this type (evidence in the context). */
  context?: Partial<Record<StepType, number>>;
  /**
   * Step types on which this basic tool searches a fixed index (local search is not the live web):
   * a step of the type that needs a fresh fact is out of its reach.
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
  /** Roles it writes for itself (absent: it delegates every query and program to a model, as the paper's harness does). */
  writes?: Partial<Record<WriterRole, number>>;
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

/** Whether the tool is a model that can answer a step of this type. */
export function canAnswer(tool: ToolSpec, type: StepType): boolean {
  return tool.enabled && tool.kind !== 'basic' && tool.skill[type] !== undefined;
}

/** Output tokens of one piece of writing (a query with the reasoning behind it, or a program): a share of its answer length. */
export function writeTokens(tool: Pick<ToolSpec, 'outputTokens'>, share: number): number {
  return Math.max(1, Math.round(tool.outputTokens.mean * share));
}

/**
 * Who drives an episode: writes every turn, and answers a step submitted with no attempt. The
 * catalog's orchestrator drives the trained policy and the routing baselines; a catalog model
 * drives the paper's "model X with tools / without tools / as a prompted orchestrator" rows.
 */
export interface Driver {
  id: string;
  pricing: Pick<Pricing, 'inputPerM' | 'outputPerM'>;
  /** Output tokens of a turn in which it writes a query or a program itself (and calls the tool). */
  turnTokens: number;
  /** Output tokens of a turn that hands a call to another model (which writes or answers): a short instruction. */
  delegateTokens: number;
  /** Output tokens of a turn in which it answers a step itself. */
  answerTokens: number;
  latency: Pick<LatencyModel, 'fixedMs' | 'tokensPerSecond'>;
  skill: Partial<Record<StepType, number>>;
  /** Roles it writes itself, inside its own turn (a model with basic tools writes its own queries and programs). */
  writes?: Partial<Record<WriterRole, number>>;
  /**
   * It answers the whole question in one generation (a model without tools: one call, as in the
   * paper's no-tool rows): only the first step it answers itself costs an answer turn.
   */
  answersAtOnce?: boolean;
}

/** The catalog's own orchestrator as the driver: every turn, routing or answering, writes outputTokensPerTurn. */
export function orchestratorDriver(o: OrchestratorSpec): Driver {
  return { id: o.id, pricing: o.pricing, turnTokens: o.outputTokensPerTurn, delegateTokens: o.outputTokensPerTurn,
    answerTokens: o.outputTokensPerTurn, latency: o.latency, skill: o.skill,
    ...(o.writes ? { writes: o.writes } : {}) };
}

/**
 * A catalog model as the driver: it answers with its full output, reasons for `turnShare` of that on a
 * turn in which it writes a query or a program itself, and for `delegateShare` of it on a turn that
 * hands a call to another model.
 */
export function modelDriver(t: ToolSpec, turnShare: number, delegateShare: number): Driver {
  return {
    id: t.id,
    pricing: { inputPerM: t.pricing.inputPerM, outputPerM: t.pricing.outputPerM },
    turnTokens: Math.round(t.outputTokens.mean * turnShare),
    delegateTokens: Math.round(t.outputTokens.mean * delegateShare),
    answerTokens: t.outputTokens.mean,
    latency: { fixedMs: t.latency.fixedMs, tokensPerSecond: t.latency.tokensPerSecond },
    skill: t.skill,
    writes: t.writes ?? ownWriting(t),
  };
}

/**
 * What a model that fills no writer slot writes when it drives with tools itself (the paper's "Llama-3.3-70B
 * with tools"): queries as well as it reasons, programs as well as it codes.
 */
function ownWriting(t: ToolSpec): Partial<Record<WriterRole, number>> {
  const w: Partial<Record<WriterRole, number>> = {};
  const query = t.skill.reason ?? t.skill.retrieve, code = t.skill.code;
  if (query !== undefined) w.query = query;
  if (code !== undefined) w.code = code;
  return w;
}

/** Cost of one driver turn that reads `inTokens` and writes `outTokens`. */
export function driverTurnCost(d: Driver, inTokens: number, outTokens: number): number {
  return (d.pricing.inputPerM * inTokens + d.pricing.outputPerM * outTokens) / 1e6;
}

export function driverTurnLatencyMs(d: Driver, outTokens: number): number {
  return baseLatencyMs(d.latency, outTokens);
}

export function toolIndex(catalog: Catalog, id: string): number {
  return catalog.tools.findIndex((t) => t.id === id);
}

/** Formats an amount in the catalog's currency. */
export function formatCost(catalog: Pick<Catalog, 'currency'>, x: number): string {
  if (catalog.currency === 'units') return `${x.toFixed(3)} u`;
  return x >= 0.1 ? `$${x.toFixed(2)}` : `$${x.toFixed(4)}`;
}
