// A catalog refusal in the editor's words: the validator names fields by their path in the catalog
// format ("tools[3].pricing.inputPerM: must be ≥ 0"); the page names them as its editor labels them
// ("gpt-5 $/M in: must be ≥ 0"), by the refused candidate's tool ids.

/** The editor's name of each field it shows (its columns' headers; the editor reads them from here). */
export const CATALOG_FIELD_LABELS = {
  'pricing.inputPerM': '$/M in',
  'pricing.outputPerM': '$/M out',
  'pricing.perCall': 'per call',
  'pricing.perSecond': '$ per second',
  'latency.fixedMs': 'fixed ms',
  'latency.tokensPerSecond': 'tok/s',
  'latency.jitter': 'latency jitter',
  'outputTokens.mean': 'output tokens',
  'outputTokens.spread': 'output-token spread',
  calibration: 'calibration (AUROC)',
  enabled: 'on',
} as const satisfies Record<string, string>;

export function catalogErrorText(error: string, candidate: unknown): string {
  const tools = (candidate as { tools?: { id?: unknown }[] } | null)?.tools;
  return error
    .replace(/^invalid catalog: /, 'Catalog edit refused: ')
    .replace(/tools\[(\d+)\]\.([\w.]+)/g, (_m, j: string, path: string) => {
      const id = tools?.[Number(j)]?.id;
      const name = typeof id === 'string' && id ? id : `tool ${Number(j) + 1}`;
      return `${name} ${path.startsWith('skill.') ? `skill ${path.slice(6)}` : (CATALOG_FIELD_LABELS as Record<string, string>)[path] ?? path}`;
    });
}
