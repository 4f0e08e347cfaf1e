// Command-line parsing: `<command> --key value --flag`, with clear errors for what is wrong.

import { parseDecimal } from '../core/decimal';

export class CliError extends Error {}

export interface Args {
  command: string;
  options: Map<string, string>;
  flags: Set<string>;
}

/** Parses argv; `flagNames` take no value. */
export function parseArgs(argv: readonly string[], flagNames: ReadonlySet<string>): Args {
  const [command = 'help', ...rest] = argv;
  const options = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as string;
    if (!a.startsWith('--')) throw new CliError(`unexpected argument "${a}" (options look like --name value)`);
    const name = a.slice(2);
    if (name.includes('=')) throw new CliError(`${a}: write an option and its value apart, as ` +
      `--${name.slice(0, name.indexOf('='))} ${name.slice(name.indexOf('=') + 1)}`);
    if (options.has(name) || flags.has(name)) throw new CliError(`--${name} is given twice; give it once`);
    if (flagNames.has(name)) flags.add(name);
    else {
      const v = rest[i + 1];
      if (v === undefined || v.startsWith('--')) throw new CliError(`--${name} needs a value`);
      if (v.trim() === '') throw new CliError(`--${name} needs a value (got an empty string)`);
      options.set(name, v);
      i++;
    }
  }
  return { command, options, flags };
}

export function stringOpt(a: Args, name: string, fallback?: string): string {
  const v = a.options.get(name) ?? fallback;
  if (v === undefined) throw new CliError(`--${name} is required`);
  return v;
}

export function intOpt(a: Args, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = a.options.get(name);
  if (raw === undefined) return fallback;
  const v = parseDecimal(raw);
  if (!Number.isInteger(v) || v < min || v > max) throw new CliError(`--${name} must be an integer in [${min}, ${max}] (got "${raw}")`);
  return v;
}

export function numberOpt(a: Args, name: string, fallback: number, min = -Infinity, max = Infinity): number {
  const raw = a.options.get(name);
  if (raw === undefined) return fallback;
  const v = parseDecimal(raw);
  if (!Number.isFinite(v) || v < min || v > max) throw new CliError(`--${name} must be a number in [${min}, ${max}] (got "${raw}")`);
  return v;
}

/** Rejects options the command does not know (catches typos such as --seeds). */
export function checkKnown(a: Args, known: readonly string[]): void {
  for (const k of [...a.options.keys(), ...a.flags]) {
    if (!known.includes(k)) throw new CliError(`${a.command}: unknown option --${k} (known: ${known.map((x) => `--${x}`).join(' ')})`);
  }
}
