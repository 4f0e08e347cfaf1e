// Validation of catalogs that come from outside (a JSON file, the lab's editor, a URL): every
// rule in one schema, and errors that name the offending field ("tools[2].pricing.inputPerM:
// must be ≥ 0"). The format is documented in docs/CATALOG.md.

import { errorMessage } from '../errorMessage';
import { z } from 'zod';
import { expectedCallCost, expectedLatencyMs, WRITER_ROLES, type Catalog, type ToolSpec } from './catalog';
import { STEP_TYPES, TOOL_KINDS } from './stepTypes';
import { RESERVED_RULE, reservedNameError } from '../names';

// No code generation: zod would otherwise compile its parsers with `new Function`, which the lab's
// Content-Security-Policy forbids (and reports) on the page.
z.config({ jitless: true });

// Each check carries its own message: in zod 4 a schema's `error` would otherwise answer for every check on it.
const nonNeg = z.number({ error: 'must be a number' }).nonnegative({ error: 'must be ≥ 0' });
/**
 * Physical bounds (docs/CATALOG.md): every field stays far above any real model yet low enough that
 * costs and latencies derived from it — over a whole episode, and summed over thousands of them —
 * stay finite in float64 (1e308 once made `eval` report a null cost and training blame the learning rate).
 */
export const BOUNDS = {
  pricePerM: 10_000, // $ per million tokens (the dearest APIs charge ~$600/M)
  perCall: 1_000, // $ per call
  perSecond: 100, // $ per second of latency
  tokens: 1_000_000, // mean output tokens of a call, or of an orchestrator turn
  fixedMs: 3_600_000, // one hour per call
  tokensPerSecond: 1_000_000,
  /** The slowest a model may write (a rate that divides: 1e-300 tokens/s once made every latency infinite); 0 = tokens add no time. */
  minTokensPerSecond: 0.1,
} as const;
const upTo = (max: number, unit: string) => nonNeg.max(max, { error: `must be at most ${max.toLocaleString('en-US')} ${unit}` });
/** Tokens a second: a latency divides by it, so it is 0 (no token time) or far from 0. */
const tokenRate = upTo(BOUNDS.tokensPerSecond, 'tokens/s').refine((v) => v === 0 || v >= BOUNDS.minTokensPerSecond,
  { error: `must be 0 (tokens add no time) or at least ${BOUNDS.minTokensPerSecond} tokens/s` });
const skillValue = z.number({ error: 'must be a number' }).min(-10, { error: 'must be in [−10, 10]' }).max(10, { error: 'must be in [−10, 10]' });
const skill = z.partialRecord(z.enum(STEP_TYPES), skillValue);
const id = z
  .string({ error: 'must be a string' })
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, {
    error: 'must be 1 to 64 lowercase letters, digits, ".", "_" or "-", starting with a letter or digit',
  })
  .refine((v) => reservedNameError(v) === null, {
    error: (iss) => reservedNameError(String(iss.input)) ?? RESERVED_RULE,
  });
/** Free text (names, descriptions): bounded, since a catalog travels in links and in every checkpoint. */
export const MAX_TEXT_CHARS = { name: 200, description: 2_000 } as const;
const text = (max: number) =>
  z.string({ error: 'must be a string' })
    .max(max, { error: `must be at most ${max.toLocaleString('en-US')} characters` });

const toolSchema = z.strictObject({
  id,
  kind: z.enum(TOOL_KINDS, { error: `must be one of ${TOOL_KINDS.join(', ')}` }),
  description: text(MAX_TEXT_CHARS.description),
  enabled: z.boolean({ error: 'must be true or false' }),
  pricing: z.strictObject({ inputPerM: upTo(BOUNDS.pricePerM, '$/M tokens'),
    outputPerM: upTo(BOUNDS.pricePerM, '$/M tokens'), perCall: upTo(BOUNDS.perCall, '$ per call'),
    perSecond: upTo(BOUNDS.perSecond, '$/s') }),
  outputTokens: z.strictObject({ mean: upTo(BOUNDS.tokens, 'tokens'), spread: nonNeg.max(3, { error: 'must be at most 3' }) }),
  latency: z.strictObject({ fixedMs: upTo(BOUNDS.fixedMs, 'ms'),
    tokensPerSecond: tokenRate, jitter: nonNeg.max(3, { error: 'must be at most 3' }) }),
  skill,
  writes: z.partialRecord(z.enum(WRITER_ROLES), skillValue).optional(),
  runs: z.enum(WRITER_ROLES, { error: `must be one of ${WRITER_ROLES.join(', ')}` }).optional(),
  context: z.partialRecord(z.enum(STEP_TYPES),
    z.number({ error: 'must be a number' }).min(0, { error: 'must be in [0, 6]' }).max(6, { error: 'must be in [0, ' +
      '6]' })).optional(),
  offline: z.array(z.enum(STEP_TYPES)).optional(),
  calibration: z
    .number({ error: 'must be a number' })
    .min(0.5, { error: 'is an AUROC and must be in [0.5, 1]' })
    .max(1, { error: 'is an AUROC and must be in [0.5, 1]' }),
  argument: z.strictObject({
    name: text(MAX_TEXT_CHARS.name).regex(/^[a-z_][a-z0-9_]*$/),
    description: text(MAX_TEXT_CHARS.description),
  }),
});

const catalogSchema = z
  .strictObject({
    name: text(MAX_TEXT_CHARS.name).min(1, { error: 'must not be empty' }),
    currency: z.enum(['USD', 'units'], { error: 'must be "USD" or "units"' }),
    orchestrator: z.strictObject({
      id,
      description: text(MAX_TEXT_CHARS.description),
      pricing: z.strictObject({ inputPerM: upTo(BOUNDS.pricePerM, '$/M tokens'), outputPerM: upTo(BOUNDS.pricePerM, '$/M tokens') }),
      outputTokensPerTurn: upTo(BOUNDS.tokens, 'tokens'),
      latency: z.strictObject({ fixedMs: upTo(BOUNDS.fixedMs, 'ms'), tokensPerSecond: tokenRate }),
      skill,
      writes: z.partialRecord(z.enum(WRITER_ROLES), skillValue).optional(),
    }),
    tools: z.array(toolSchema).min(1, { error: 'needs at least one tool' }).max(64, { error: 'at most 64 tools' }),
  })
  .superRefine((c, ctx) => {
    // Derived at load: a call's expected cost (with a 1M-token context) and latency must be finite.
    c.tools.forEach((t, i) => {
      const cost = expectedCallCost(t as ToolSpec, 1e6), ms = expectedLatencyMs(t as ToolSpec);
      if (!Number.isFinite(cost) || !Number.isFinite(ms)) ctx.addIssue({ code: 'custom', path: ['tools', i],
        message: `its expected call cost (${cost}) or latency (${ms} ms) is not finite` });
    });
    // Roles: a model may write (never run), a basic tool runs what is written (never writes).
    c.tools.forEach((t, i) => {
      if (t.kind === 'basic' && t.writes) ctx.addIssue({ code: 'custom', path: ['tools', i, 'writes'],
        message: 'a basic tool runs what a model writes; only a model writes' });
      if (t.kind !== 'basic' && t.runs) ctx.addIssue({ code: 'custom', path: ['tools', i, 'runs'],
        message: 'only a basic tool runs a query or a program; a model writes them (writes) or answers (skill)' });
    });
    const seen = new Map<string, number>();
    c.tools.forEach((t, i) => {
      const first = seen.get(t.id);
      if (first !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['tools', i, 'id'], message: `duplicate tool id "${t.id}" (also tools[${first}])` });
      } else seen.set(t.id, i);
    });
  });

/** "tools[2].pricing.inputPerM" from a zod path. */
function formatPath(path: readonly PropertyKey[]): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s ? `.${String(p)}` : String(p);
  return s || '(catalog)';
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Validates an unknown value as a catalog; on failure, one message per problem, each naming its field. */
export function parseCatalog(input: unknown): Parsed<Catalog> {
  const r = catalogSchema.safeParse(input);
  if (r.success) return { ok: true, value: r.data as Catalog };
  const lines = r.error.issues.slice(0, 5).map((iss) => {
    let what = iss.message;
    if (iss.code === 'unrecognized_keys') {
      const keys = iss.keys.map((k) => `"${k}"`).join(', ');
      what =
        iss.path[iss.path.length - 1] === 'skill'
          ? `unknown step type ${keys} (known: ${STEP_TYPES.join(', ')})`
          : `unknown field ${keys}`;
    }
    return `${formatPath(iss.path)}: ${what}`;
  });
  return { ok: false, error: `invalid catalog: ${lines.join('; ')}` };
}

/** Parses catalog JSON text. */
export function parseCatalogJson(text: string): Parsed<Catalog> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `invalid catalog: not JSON (${errorMessage(e)})` };
  }
  return parseCatalog(data);
}
