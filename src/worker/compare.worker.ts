// The compare worker: runs two configurations side by side (core/lab/pairedRuns.ts), apart from
// the training worker, on the backend the page is using. Started lazily by the compare store.
// Points go out in batches at most every COMPARE_PUSH_MS; a Stop (or a newer Start) ends the run
// after the pair in flight. One run at a time: a Start waits for the run it replaces to end.

import { comparePreset, presetConfigs } from '../core/lab/comparePresets';
import { runPaired } from '../core/lab/pairedRuns';
import { initBackend } from './backend';
import { COMPARE_PUSH_MS, type ComparePush, type CompareRequest } from './compareProtocol';
import { toMetricPoint, type BackendName, type MetricPoint } from './protocol';

const post = (p: ComparePush): void => (self as unknown as Worker).postMessage(p);
/** Lets queued messages (a Stop) in between two pairs. */
const yieldToMessages = () => new Promise<void>((r) => setTimeout(r, 0));

type Run = { runId: number; stop: boolean };
let current: Run | null = null;
/** The run before, until it has ended. */
let previous: Promise<void> = Promise.resolve();
/** The backend tfjs runs on here, and the name the page asked for when it was started. */
let backend: { asked: BackendName | null; name: BackendName } | null = null;

async function ensureBackend(asked: BackendName | null): Promise<BackendName> {
  if (backend && backend.asked === asked) return backend.name;
  const info = await initBackend(asked ?? undefined);
  backend = { asked, name: info.name };
  return info.name;
}

async function run(req: Extract<CompareRequest, { type: 'start' }>, me: Run): Promise<void> {
  const { runId } = req;
  if (me.stop) return post({ type: 'done', runId, completed: 0, stopped: true, msPerPair: 0 });
  const preset = comparePreset(req.presetId);
  if (!preset) return post({ type: 'error', runId, message: `there is no comparison preset "${req.presetId}"` });
  let name: BackendName;
  try {
    name = await ensureBackend(req.backend);
  } catch (e) {
    return post({ type: 'error', runId, message: `the comparison could not start tfjs: ${(e as Error).message}` });
  }
  post({ type: 'started', runId, backend: name });
  let batch: [MetricPoint[], MetricPoint[]] = [[], []];
  let lastPush = performance.now();
  let completed = 0;
  const flush = () => {
    if (!batch[0].length) return;
    post({ type: 'points', runId, points: batch });
    batch = [[], []];
    lastPush = performance.now();
  };
  try {
    const result = await runPaired(req.catalog, presetConfigs(preset, req.train), req.iterations, {
      shouldStop: () => me.stop,
      onPair: async ([a, b]) => {
        completed++;
        batch[0].push(toMetricPoint(a));
        batch[1].push(toMetricPoint(b));
        if (performance.now() - lastPush >= COMPARE_PUSH_MS) flush();
        await yieldToMessages();
      },
    });
    flush();
    post({ type: 'done', runId, completed, stopped: result.stopped, msPerPair: result.msPerPair });
  } catch (e) {
    flush();
    const msg = (e as Error)?.message ?? String(e);
    post({ type: 'error', runId, message: completed ? `the comparison stopped at iteration ${completed + 1} of ${req.iterations}: ${msg}` : `the comparison could not start: ${msg}` });
  }
}

self.addEventListener('message', (ev: MessageEvent<CompareRequest>) => {
  const req = ev.data;
  if (req.type === 'stop') {
    if (current && current.runId === req.runId) current.stop = true;
    return;
  }
  if (current) current.stop = true;
  const me: Run = { runId: req.runId, stop: false };
  current = me;
  previous = previous.then(() => run(req, me)).catch((e: unknown) => post({ type: 'error', runId: req.runId, message: (e as Error)?.message ?? String(e) }));
});
