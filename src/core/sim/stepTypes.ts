// The vocabulary of the simulated world: the kinds of step a task is made of and its domains.

export const STEP_TYPES = ['retrieve', 'compute', 'reason', 'code', 'lookup', 'act'] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const DOMAINS = ['math', 'code', 'factual', 'multihop', 'science', 'agentic'] as const;
export type Domain = (typeof DOMAINS)[number];

export const TOOL_KINDS = ['basic', 'specialist', 'generalist'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

export const STEP_TYPE_INDEX: Readonly<Record<StepType, number>> = Object.fromEntries(
  STEP_TYPES.map((s, i) => [s, i]),
) as Record<StepType, number>;

export const DOMAIN_INDEX: Readonly<Record<Domain, number>> = Object.fromEntries(
  DOMAINS.map((d, i) => [d, i]),
) as Record<Domain, number>;

/** What a step of each type asks for, in words (used in renderings and docs). */
export const STEP_TYPE_MEANING: Readonly<Record<StepType, string>> = {
  retrieve: 'find a fresh fact that is not in any model’s weights',
  compute: 'an exact calculation',
  reason: 'multi-step reasoning towards an answer',
  code: 'write a program that passes the tests',
  lookup: 'read a record from the local store / document index',
  act: 'write a change to the record store (agentic tasks)',
};
