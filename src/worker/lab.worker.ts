// The lab's long-lived module worker: owns tfjs and its backend, and answers the page's requests.

import { generateTasks } from '../core/sim/tasks';
import { initBackend } from './backend';
import type { Reply, Request } from './protocol';

const post = (r: Reply): void => (self as unknown as Worker).postMessage(r);

self.addEventListener('message', (ev: MessageEvent<Request>) => {
  const req = ev.data;
  void handle(req).catch((e: unknown) => post({ id: req.id, type: 'error', message: (e as Error).message ?? String(e) }));
});

async function handle(req: Request): Promise<void> {
  switch (req.type) {
    case 'init': {
      post({ id: req.id, type: 'ready', backend: await initBackend(req.backend) });
      return;
    }
    case 'generate': {
      const { tasks, stats } = generateTasks(req.catalog, { seed: req.seed, count: req.count, availability: req.availability });
      post({ id: req.id, type: 'tasks', tasks, stats });
      return;
    }
  }
}
