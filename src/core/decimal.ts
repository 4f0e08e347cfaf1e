// Numbers as people type them: a decimal literal (1000, 0.5, -2, .7, 1e-3) or nothing. Number()
// alone reads '' as 0 and accepts 0x10, 0b11 and 0o7, which no one means on a command line, in a
// baseline's name or in a link.

/** The value of a decimal literal (spaces around allowed); NaN for anything else. */
export function parseDecimal(raw: string): number {
  return /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(raw) ? Number(raw) : NaN;
}
