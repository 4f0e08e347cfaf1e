// Names that come from outside — a user, a link, a file, storage — used as keys. A plain obj[name]
// finds what every object inherits (`constructor`, `__proto__`), so a tool named "constructor" once
// weighed a function in P and a preset named "__proto__" was "found". Every such lookup goes
// through ownGet / hasOwnName, and the names that no key may be are refused with one rule.

/** The value stored under `name` in `obj` itself (never one it inherits), or undefined. */
export function ownGet<T>(obj: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(obj, name) ? obj[name] : undefined;
}

/** Whether `obj` itself holds `name` (not an inherited property such as "constructor"). */
export function hasOwnName(obj: object, name: string): boolean {
  return Object.hasOwn(obj, name);
}

/**
 * Names no tool may have: what every JavaScript object already has (a key of that name reads or
 * replaces the object's own machinery), and the preference's own keys (a preference file writes
 * {"<tool id>": p, "outcome": p, "cost": p, "latency": p}, so a tool of such a name is ambiguous).
 */
export const RESERVED_NAMES = ['__proto__', 'constructor', 'prototype', 'outcome', 'cost', 'latency'] as const;

/** The rule, as a refusal says it. */
export const RESERVED_RULE = `is reserved: no tool id may be ${RESERVED_NAMES.slice(0, -1).join(', ')} or `
  + `${RESERVED_NAMES.at(-1)} (names every object has, and the preference's own keys)`;

/** Why `name` may not be a tool id, or null. */
export function reservedNameError(name: string): string | null {
  return (RESERVED_NAMES as readonly string[]).includes(name) ? `"${name}" ${RESERVED_RULE}` : null;
}
