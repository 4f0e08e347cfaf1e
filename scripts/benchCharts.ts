// The charts' section of docs/BENCHMARKS.md: recharts 3 against the lab's own SVG charts on the page's main thread
// while training (issue 31). Measured by hand, not by `npm run bench` (it needs three builds side by side), so the
// figures are written here and the generator keeps them when it regenerates the page.

const SVG = 'SVG, hand-made ticks, scales and paths (6650298)';
const RECHARTS = 'recharts 3.11.3 prototype (039f208)';
const D3 = 'SVG on d3-scale 4.0.3 and d3-shape 3.2.1 (5e0b0b8, shipped)';

export function chartsSection(): string[] {
  return [
    '## Charts: recharts 3 against SVG (2026-12-06, 2 cores)', '',
    'Measured on 2026-12-06 on this machine (2 cores, shared with other jobs: load average 0.1–5.2 during the runs;',
    'heavy jobs one at a time under a lock), Chromium 156.0.8078.114, Node v20.20.2, after the fix of the status line',
    'that re-wrapped and resized every chart at once. Three production builds were served side by side (`vite',
    'preview`) and measured in alternation, run by run: the lab before this change; the prototype, in which',
    'IterationChart (so the six training charts and the compare charts) and the trade-off view were recharts',
    '(`ComposedChart` with `Line`, stacked and range `Area`, `ReferenceLine`, `Scatter`, its `Tooltip`; animations',
    'off; the same ticks, data, downsampling and staggered update slots); and the charts as shipped, on d3.', '',
    '- **Long tasks** (`e2e/backend.spec.ts`, "wasm fallback … long tasks": the Long Tasks API in the page while it',
    '  trains on wasm at the default size, 5 s of warm-up then 15 s; the test requires none):', '',
    '| build | runs | tasks ≥ 50 ms per run (first 5 s + next 15 s) | longest | iterations in 20 s |',
    '|---|---:|---|---:|---:|',
    `| ${SVG} | 7 | 0 in every run | — | 571–941 |`,
    `| ${RECHARTS} | 4 | 17 (9 + 8), 13 (9 + 4), 6 (4 + 2), 4 (2 + 2) | 215 ms | 545–872 |`,
    `| ${D3} | 3 | 0 in every run | — | 750–890 |`, '',
    '- **Main-thread time** (`npm run profile:main-thread` on `vite build --minify false` builds: 20 s of training on',
    '  wasm under a Chromium trace and a sampled CPU profile; its tasks ≥ 50 ms include the profiler\'s own start,',
    '  66–112 ms, and on both SVG builds the others are paint and layout, slowed by the trace, no script):', '',
    '| build | runs | main thread busy, ms (median) | tasks ≥ 50 ms per run | tasks ≥ 30 ms per run |',
    '|---|---:|---|---|---|',
    `| ${SVG} | 10 | 3762–5316 (4641) | 1–4 | 2–16 |`,
    `| ${RECHARTS} | 4 | 7654–12092 (8430) | 11, 16, 17, 36 | 36–79 |`,
    `| ${D3} | 6 | 4118–5313 (4724) | 1–4 | 5–11 |`, '',
    'recharts\' long tasks are script: its components (ZIndexLayer, Label, Tooltip, the curves and their label lists)',
    're-rendered from its own store, synchronously, in the message handlers that deliver metrics and in animation',
    'frames, which no React transition slices. The d3 build\'s paths cost what the hand-made ones did (in Node, 200',
    'points: 86 against 76 µs a line; 12 stacked bands of 100 points: 0.96 against 0.65 ms), and its main-thread time',
    'is within the hand-made build\'s spread. The page\'s main chunk (`npx vite build`): 793.21 kB (247.42 kB',
    'gzip) with the hand-made charts, 833.54 kB (260.72 kB gzip) on d3, 1,243.07 kB (373.48 kB gzip) with the',
    'recharts prototype.', '',
  ];
}
