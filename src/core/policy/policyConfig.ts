// The policy network's shape and seed, and the lab's default (no tfjs here: the page imports it
// through the training defaults, and tfjs must not load on the page — its URL-flag parser runs at
// import and throws on a stray % in the query).

export interface PolicyConfig {
  /** Hidden units per layer. */
  width: number;
  /** Hidden layers per MLP (≥ 1). */
  depth: number;
  seed: number;
}

export const DEFAULT_POLICY: Readonly<PolicyConfig> = { width: 64, depth: 2, seed: 1 };
