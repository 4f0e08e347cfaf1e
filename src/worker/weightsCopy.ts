// The page keeps a copy of the policy, so that nothing trained is lost when this worker dies (it
// can stop without a word: `self.close()`, a crash, the browser's memory pressure). The copy is the
// export itself (orchestrator.json + float32 weights, with the lab's iteration): a worker started
// afresh imports it and goes on from that iteration, and Export saves it when no worker answers.
// Kept cheap: while training at most every COPY_EVERY_MS (longer for a large policy), and once
// when the policy changes otherwise (a pause, a Step, a Reset, an import, Undo, a new network).

import type { Push } from './protocol';
import type { LabSession } from './session';

/** While training, a copy at most this often for a policy of up to 256 K weights (longer in proportion above). */
export const COPY_EVERY_MS = 3000;
const COPY_FLOATS = 262_144;

/** Returns copy(force): posts the current weights now (force), or if the last copy is old enough. */
export function weightsCopier(
  session: LabSession,
  post: (p: Push, transfer: Transferable[]) => void,
): (force: boolean) => Promise<void> {
  let last = -Infinity, every = COPY_EVERY_MS, busy = false, again = false;
  const copy = async (force: boolean): Promise<void> => {
    const now = performance.now();
    if (busy) {
      again ||= force; // the policy may change meanwhile: a forced copy comes after the one in flight
      return;
    }
    if (!session.settings || (!force && now - last < every)) return;
    busy = true;
    last = now;
    try {
      const { json, weights } = await session.exportWeights(); // one readback, queued with the other tfjs work
      type Recorded = { userDefinedMetadata?: { training?: { iterations?: number } } };
      const iteration = (json as Recorded).userDefinedMetadata?.training?.iterations ?? session.iteration;
      every = COPY_EVERY_MS * Math.max(1, weights.byteLength / 4 / COPY_FLOATS);
      post({ id: 0, type: 'weights', json, weights, iteration }, [weights]);
    } catch {
      // A policy that no longer computes finite values is not copied: the page keeps the last good copy.
    } finally {
      busy = false;
    }
    if (again) {
      again = false;
      await copy(true);
    }
  };
  return copy;
}
