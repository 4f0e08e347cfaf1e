// The bench page: runs the training benchmark for one backend in a worker and, meanwhile, records
// the longest main-thread task (the page must stay responsive while training). The result is
// shown and left on `window.benchResult` for scripts/bench.ts. `?backend=…&plan=quick|full|default|diverge`
// runs at once (diverge: the divergence guard's self-check; memory: tensors and GPU bytes after 5 and
// 15 iterations — both for e2e/webgpu.spec.ts). `&flags=NAME:value,…` sets tfjs flags first (e.g.
// WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE:1000), to measure a backend's knobs.

import type { BenchMessage } from './bench.worker';
import './bench.css';

interface BenchResult { backend: string; status: 'done' | 'unavailable' | 'error'; message?: string; adapter?: string;
  software?: boolean; report?: unknown; check?: unknown; longestTaskMs: number }
declare global { interface Window { benchResult?: BenchResult } }

const log = document.getElementById('bench-log') as HTMLPreElement;
const form = document.getElementById('bench-form') as HTMLFormElement;
const say = (line: string) => { log.textContent += `${line}\n`; };

function run(backend: string, plan: string, flags = ''): void {
  window.benchResult = undefined;
  log.textContent = '';
  say(`${backend}, ${plan} plan${flags ? `, tfjs flags ${flags}` : ''}…`);
  let longest = 0;
  const observer = 'PerformanceObserver' in window && PerformanceObserver.supportedEntryTypes?.includes('longtask')
    ? new PerformanceObserver((list) => { for (const e of list.getEntries()) longest = Math.max(longest, e.duration); })
    : null;
  observer?.observe({ type: 'longtask', buffered: false });
  const worker = new Worker(new URL('./bench.worker.ts', import.meta.url), { type: 'module' });
  const finish = (r: Omit<BenchResult, 'backend' | 'longestTaskMs'>) => {
    observer?.disconnect();
    worker.terminate();
    window.benchResult = { backend, longestTaskMs: longest, ...r };
    say(`${r.status}${r.message ? `: ${r.message}` : ''}; longest main-thread task ${longest.toFixed(0)} ms`);
    if (r.report || r.check) say(JSON.stringify(r.report ?? r.check, null, 1));
  };
  worker.addEventListener('message', (ev: MessageEvent<BenchMessage>) => {
    const m = ev.data;
    if (m.type === 'log') say(m.line);
    else if (m.type === 'done') finish({ status: 'done', report: m.report, adapter: m.adapter, software: m.software });
    else if (m.type === 'checked') finish({ status: 'done', check: m.check });
    else if (m.type === 'unavailable') finish({ status: 'unavailable', message: m.reason });
    else finish({ status: 'error', message: m.message });
  });
  worker.addEventListener('error', (ev) => finish({ status: 'error', message: ev.message }));
  worker.postMessage({ backend, plan, flags });
}

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const data = new FormData(form);
  run(String(data.get('backend')), String(data.get('plan')));
});
const q = new URLSearchParams(location.search);
const b = q.get('backend');
const plan = q.get('plan');
// (quick, full and default — the default size alone — are the benchmark; diverge, memory, kernels and
// series are the checks)
const PLANS = ['full', 'default', 'diverge', 'memory', 'kernels', 'series'];
if (b && ['webgpu', 'webgl', 'wasm', 'cpu'].includes(b)) run(b, PLANS.includes(plan ?? '') ? (plan as string) : 'quick', q.get('flags') ?? '');
