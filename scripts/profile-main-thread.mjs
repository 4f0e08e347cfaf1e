// Where the page's main-thread time goes while the lab trains: a Chromium trace (tasks ≥ 30 ms,
// broken down by what ran inside them) and a sampled CPU profile (inclusive time per function).
// Needs a served build: `npx vite build --minify false && npx vite preview --port 4173`, then
//   npm run profile:main-thread                      real training on wasm for 20 s (QUERY="?B=2&T=8" etc. for another page address, e.g. WebGPU;
//                                                    SECONDS=25 for another length; SHOW=routing-view scrolls that test id into view first)
//   npm run profile:main-thread -- synthetic         no training: the store fed one point every 600 ms
//   npm run profile:main-thread -- feed:KEY          no training: only store.KEY changes, 20 times
//                                                    (KEY = series | histogram | tradeoff | group),
//                                                    to attribute the cost to one view
// Figures are for comparing variants in one run on one machine, not for assertions.
import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { CHROMIUM_ARGS } from '../playwright.config.ts';

const mode = process.argv[2] ?? 'train';
const noTraining = mode === 'synthetic' || mode.startsWith('feed:');
const url = `http://127.0.0.1:${process.env.PORT ?? 4173}/${process.env.QUERY ?? "?backend=wasm"}`;
const tracePath = '/tmp/orchestra-lab-trace.json';

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(url);
await page.getByTestId('operating-point').waitFor({ timeout: 240_000 });
if (noTraining) {
  await page.getByRole('button', { name: 'Step' }).click();
  await page.waitForFunction(() => window.orchestraLab.getState().series.length === 1);
}
if (process.env.SHOW) await page.getByTestId(process.env.SHOW).scrollIntoViewIfNeeded();
await page.waitForTimeout(1500);
const seconds = Number(process.env.SECONDS ?? 20);
await browser.startTracing(page, { path: tracePath, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8'] });
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
await cdp.send('Profiler.start');
if (mode.startsWith('feed:')) {
  await page.evaluate(async (key) => {
    const lab = window.orchestraLab;
    const first = lab.getState();
    for (let k = 0; k < 20; k++) {
      await new Promise((r) => setTimeout(r, 400));
      const s = lab.getState();
      const jiggle = (x) => x * (0.95 + Math.random() * 0.05);
      if (key === 'series') lab.setState({ series: [...s.series, { ...first.series[0], iteration: s.series.length + 1, meanReward: Math.random() }] });
      else if (key === 'histogram') lab.setState({ histogram: { ...s.histogram, counts: s.histogram.counts.map(() => Math.floor(Math.random() * 40)) } });
      else if (key === 'tradeoff') lab.setState({ tradeoff: { ...s.tradeoff, sweep: s.tradeoff.sweep.map((p) => ({ ...p, accuracy: jiggle(p.accuracy) })), current: { ...s.tradeoff.current, accuracy: jiggle(s.tradeoff.current.accuracy) } } });
      else if (key === 'group') lab.setState({ group: k % 2 ? first.group : { ...first.group, trajectories: [...first.group.trajectories].reverse() } });
      else throw new Error(`unknown store key ${key}`);
    }
  }, mode.slice('feed:'.length));
} else if (mode === 'synthetic') {
  await page.evaluate(async () => {
    const lab = window.orchestraLab;
    const { series: [p], histogram: h } = lab.getState();
    let series = Array.from({ length: 300 }, (_, i) => ({ ...p, iteration: i + 1, meanReward: p.meanReward + Math.sin(i / 9) * 0.2, accuracy: Math.min(1, 0.5 + i / 600) }));
    lab.setState({ series });
    for (let k = 0; k < 34; k++) {
      await new Promise((r) => setTimeout(r, 600));
      series = [...series, { ...p, iteration: series.length + 1, meanReward: p.meanReward + Math.random() * 0.1, accuracy: Math.random(), kl: Math.random() * 0.01 }];
      lab.setState({ series, histogram: { ...h, counts: h.counts.map(() => Math.floor(Math.random() * 40)) } });
    }
  });
} else {
  await page.getByRole('button', { name: 'Start' }).click();
  await page.waitForTimeout(1000 * seconds);
  console.log('iterations:', await page.getByTestId('iteration').innerText());
}
const { profile } = await cdp.send('Profiler.stop');
await browser.stopTracing();
await browser.close();

// Tasks on the renderer's main thread.
const events = JSON.parse(readFileSync(tracePath, 'utf8')).traceEvents;
const threadNames = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
const onMain = (e) => threadNames.get(`${e.pid}:${e.tid}`) === 'CrRendererMain' && e.ph === 'X';
const mainEvents = events.filter(onMain);
// The profiler's own start (CpuProfiler::StartProfiling, 100–160 ms) is a task of this script's, not the page's: left out.
const profilerStart = mainEvents.filter((e) => e.name === 'CpuProfiler::StartProfiling');
const tasks = mainEvents.filter((e) => e.name === 'RunTask'
  && !profilerStart.some((p) => p.ts >= e.ts && p.ts + p.dur <= e.ts + e.dur));
const ms = tasks.map((t) => t.dur / 1000);
const traced = mode === 'train' ? 1000 * seconds : null;
console.log(`main thread busy ${ms.reduce((a, b) => a + b, 0).toFixed(0)} ms${traced ? ` (${(100 * ms.reduce((a, b) => a + b, 0) / traced).toFixed(1)}% of the ${seconds} s)` : ''}; tasks ≥ 50 ms: ${ms.filter((d) => d >= 50).length}, ≥ 30 ms: ${ms.filter((d) => d >= 30).length}, ≥ 16 ms: ${ms.filter((d) => d >= 16).length}; longest ${[...ms].sort((a, b) => b - a).slice(0, 8).map((d) => d.toFixed(0)).join(' ')}`);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map(profile.nodes.flatMap((n) => (n.children ?? []).map((c) => [c, n.id])));
// Sample times on the trace clock (both count microseconds from the same monotonic origin).
const sampleTs = [];
profile.samples.reduce((t, _, i) => { sampleTs.push(t + profile.timeDeltas[i]); return t + profile.timeDeltas[i]; }, profile.startTime);
/** Our own components and functions (capitalised names in the unminified bundle) seen in the samples of [from, to]. */
function appFramesIn(from, to) {
  const seen = new Map();
  profile.samples.forEach((id, i) => {
    if (sampleTs[i] < from || sampleTs[i] > to) return;
    const names = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const name = byId.get(cur).callFrame.functionName;
      if (/^[A-Z][A-Za-z]+$/.test(name) && !/Impl$|^Root/.test(name)) names.add(name);
    }
    for (const n of names) seen.set(n, (seen.get(n) ?? 0) + profile.timeDeltas[i]);
  });
  return [...seen].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([n, us]) => `${n} ${(us / 1000).toFixed(0)}`).join(' · ');
}
for (const t of tasks.filter((x) => x.dur >= 30_000)) {
  const inside = new Map();
  for (const e of mainEvents) if (e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur) inside.set(e.name, (inside.get(e.name) ?? 0) + e.dur);
  console.log(`  ${(t.dur / 1000).toFixed(1)} ms:`, [...inside].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([n, d]) => `${n} ${(d / 1000).toFixed(1)}`).join(' · '), `| ${appFramesIn(t.ts, t.ts + t.dur) || '-'}`);
}

// Inclusive CPU time per function (each function counted once per sample's stack).
const inclusive = new Map();
profile.samples.forEach((id, i) => {
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const f = byId.get(cur).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    if (!seen.has(key)) { seen.add(key); inclusive.set(key, (inclusive.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0)); }
  }
});
const self = new Map();
profile.samples.forEach((id, i) => {
  const f = byId.get(id).callFrame;
  const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
console.log('self time per function (top 15, idle left out):');
for (const [k, us] of [...self].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
console.log('inclusive time per function (top 30, idle left out):');
for (const [k, us] of [...inclusive].filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(root)')).sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
