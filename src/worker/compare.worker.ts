// The compare worker: runs two configurations side by side over several seeds (core/lab/pairedRuns.ts),
// apart from the training worker, on the backend the page is using. Started lazily by the compare store.
// Points go out in batches at most every COMPARE_PUSH_MS; a Stop (or a newer Start) ends the run
// after the pair in flight. One run at a time: a Start waits for the run it replaces to end.

import { comparePreset, presetConfigs } from '../core/lab/comparePresets';
import { runPaired } from '../core/lab/pairedRuns';
import { errorMessage } from '../core/errorMessage';
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
  if (me.stop) return post({ type: 'done', runId, completed: [], stopped: true, msPerPair: 0 });
  const preset = comparePreset(req.presetId);
  if (!preset) return post({ type: 'error', runId, problem: { code: 'noPreset', presetId: req.presetId } });
  let name: BackendName;
  try {
    name = await ensureBackend(req.backend);
  } catch (e) {
    return post({ type: 'error', runId, problem: { code: 'noBackend', error: errorMessage(e) } });
  }
  post({ type: 'started', runId, backend: name });
  const perSeed = (): MetricPoint[][] => Array.from({ length: req.seeds }, () => []);
  const empty = (): [MetricPoint[][], MetricPoint[][]] => [perSeed(), perSeed()];
  let batch = empty();
  let pending = 0;
  let lastPush = performance.now();
  const completed: number[] = Array.from({ length: req.seeds }, () => 0);
  const flush = () => {
    if (!pending) return;
    post({ type: 'points', runId, points: batch });
    batch = empty();
    pending = 0;
    lastPush = performance.now();
  };
  try {
    const result = await runPaired(req.catalog, presetConfigs(preset, req.train), req.iterations, {
      shouldStop: () => me.stop,
      onPair: async ([a, b], _, seed) => {
        completed[seed] = (completed[seed] ?? 0) + 1;
        batch[0][seed]?.push(toMetricPoint(a));
        batch[1][seed]?.push(toMetricPoint(b));
        pending++;
        if (performance.now() - lastPush >= COMPARE_PUSH_MS) flush();
        await yieldToMessages();
      },
    }, req.seeds);
    flush();
    post({ type: 'done', runId, completed, stopped: result.stopped, msPerPair: result.msPerPair });
  } catch (e) {
    flush();
    const error = errorMessage(e);
    const at = completed.indexOf(Math.min(...completed));
    post({ type: 'error', runId, problem: completed.some((c) => c > 0)
      ? { code: 'stoppedAt', iteration: (completed[at] ?? 0) + 1, of: req.iterations, seed: req.train.seed + at, error }
      : { code: 'notStarted', error } });
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
  previous = previous.then(() => run(req, me)).catch((e: unknown) => post({ type: 'error', runId: req.runId,
    problem: { code: 'failed', error: errorMessage(e) } }));
});
