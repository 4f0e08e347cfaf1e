// The paper's numbers the lab's world is calibrated to and compared with: ToolOrchestra
// (arXiv 2511.21689) Table 1 — accuracy on HLE / FRAMES / τ²-Bench, cost in US cents and latency
// in minutes per query averaged over HLE and FRAMES (reference/toolorchestra-facts.md).

export interface PaperRow {
  /** The lab's policy that stands for this row. */
  policy: string;
  label: string;
  accuracy: { hle: number; frames: number; tau2: number | null };
  costCents: number;
  latencyMin: number;
}

export const PAPER_TABLE1: readonly PaperRow[] = [
  { policy: 'orchestrator', label: 'Orchestrator-8B', accuracy: { hle: 37.1, frames: 76.3, tau2: 80.2 }, costCents: 9.2, latencyMin: 8.2 },
  { policy: 'tools+gpt-5', label: 'GPT-5, basic tools', accuracy: { hle: 35.1, frames: 74.0, tau2: 77.7 }, costCents: 30.2, latencyMin: 19.8 },
  { policy: 'prompted:gpt-5', label: 'GPT-5, all tools (prompted)', accuracy: { hle: 21.2, frames: 57.5, tau2: 62.3 }, costCents: 17.8, latencyMin: 13.6 },
  { policy: 'tools+claude-opus-4.1', label: 'Claude Opus 4.1, all tools', accuracy: { hle: 34.6, frames: 72.8, tau2: 76.8 }, costCents: 52.5, latencyMin: 25.6 },
  { policy: 'prompted:qwen3-8b', label: 'Qwen3-8B, all tools (prompted)', accuracy: { hle: 30.6, frames: 68.9, tau2: 72.3 }, costCents: 27.6, latencyMin: 18.3 },
  { policy: 'notools:gpt-5', label: 'GPT-5, no tools', accuracy: { hle: 23.4, frames: 66.3, tau2: null }, costCents: 6.2, latencyMin: 4.1 },
];

/** Accuracy without tools (Table 1's no-tool rows), for the models the lab has. */
export const PAPER_NOTOOLS: Readonly<Record<string, { hle: number; frames: number }>> = {
  'gpt-5': { hle: 23.4, frames: 66.3 },
  'claude-opus-4.1': { hle: 11.7, frames: 58.2 },
  'llama-3.3-70b': { hle: 3.8, frames: 32.4 },
};

export const PAPER_SUITES = ['hle', 'frames', 'tau2'] as const;
export type PaperSuite = (typeof PAPER_SUITES)[number];
