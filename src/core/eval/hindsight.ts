// The hindsight baseline: it sees the hidden draws (which query or program would find what its step
// needs, which answer would be right) and, on each unit, takes the cheapest plan that commits a right
// answer within the turns left: an answerer that is right now, or one that would be right after one
// find for each step it gets wrong. It uses the env's own success model (peekFind / peekRight). It is
// a cheap right path, not an upper bound: a unit that only two finds, or a second try, would solve is
// one it gives up on, and a policy that gathers more evidence can be more accurate (it was once called
// the oracle, and was beaten).

import { driverTurnCost } from '../sim/catalog';
import type { BatchEnv } from '../sim/env';
import { nextLift, unitEstimate } from '../sim/estimates';
import { SELF, type Slot } from '../sim/slots';
import { allowedSlots, policy, slotCost, turnsLeft, unitsLeft, type BatchPolicy } from './policy';

/** The first action of the cheapest plan that commits a right answer on episode i's current unit. */
function hindsightAction(env: BatchEnv, i: number): number {
  const [start, len] = env.unitRange(i);
  const evidenceSlots = allowedSlots(env, i, (s) => s.role !== 'answer');
  const answers: { action: number; model: number; cost: number }[] = [
    { action: env.submitAction, model: SELF, cost: driverTurnCost(env.driver, env.context[i] as number, env.driver.answerTokens) },
    ...allowedSlots(env, i, (s) => s.role === 'answer').map((s) => ({ action: s, model: (env.slots[s] as Slot).model, cost: slotCost(env, i, s) })),
  ];
  let best = -1, bestCost = Infinity;
  for (const a of answers) {
    let cost = a.cost, first = a.action, fixes = 0, ok = true;
    for (let k = start; k < start + len && ok; k++) {
      if (env.peekRight(i, k, a.model)) continue;
      let fix = -1, fixCost = Infinity;
      for (const s of evidenceSlots) {
        if (env.target(i, s) !== k || !env.peekFind(i, s) || !env.peekRight(i, k, a.model, nextLift(env, i, s))) continue;
        const c = slotCost(env, i, s);
        if (c < fixCost) { fix = s; fixCost = c; }
      }
      if (fix < 0) ok = false;
      else {
        if (fixes === 0) first = fix;
        fixes++;
        cost += fixCost;
      }
    }
    if (ok && fixes + unitsLeft(env, i) <= turnsLeft(env, i) && cost < bestCost) { best = first; bestCost = cost; }
  }
  if (best >= 0) return best;
  // No right plan: the likeliest answer now.
  let likeliest = env.submitAction, p = unitEstimate(env, i, SELF);
  for (const a of answers) {
    const q = unitEstimate(env, i, a.model);
    if (q > p) { likeliest = a.action; p = q; }
  }
  return likeliest;
}

/** Sees the hidden draws; the cheapest right plan per unit with at most one find a step (not an upper bound). */
export function hindsightPolicy(): BatchPolicy {
  return policy('hindsight', hindsightAction);
}
