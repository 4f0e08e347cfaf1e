// Which pool task each batch slot trains on: the pool in shuffled passes (epochs), as veRL's
// dataloader goes through its training data, instead of independent draws. Every task comes
// round once per pass, so a window of iterations sees nearly the whole pool and its accuracy moves
// with the policy, not with which tasks happened to be drawn. Stateless: a slot's task follows from
// the seed, the iteration and the slot, so a resumed or replayed run draws the same tasks.

import { hashInts, SeqRng } from '../sim/rng';

let cached: { seed: number; size: number; epoch: number; order: Int32Array } | null = null;

/** The pool's order in pass `epoch` (a seeded Fisher–Yates shuffle). */
function passOrder(seed: number, size: number, epoch: number): Int32Array {
  if (cached && cached.seed === seed && cached.size === size && cached.epoch === epoch) return cached.order;
  const order = Int32Array.from({ length: size }, (_, i) => i);
  const rng = new SeqRng(hashInts(seed, epoch, 0x0e90c));
  for (let i = size - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = order[i] as number;
    order[i] = order[j] as number;
    order[j] = t;
  }
  cached = { seed, size, epoch, order };
  return order;
}

/** The pool index of batch slot `b` (of `batch`) at trainer iteration `iteration`. */
export function taskIndex(seed: number, poolSize: number, iteration: number, batch: number, b: number): number {
  const k = iteration * batch + b;
  return passOrder(seed, poolSize, Math.floor(k / poolSize))[k % poolSize] as number;
}
