import { useMemo } from 'react';
import type { RewardMode } from '../core/grpo/rewardModes';
import { useLab } from '../store/labStore';

const f = (x: number | undefined, d = 3) => (x === undefined || !Number.isFinite(x) ? undefined : x.toFixed(d));

/**
 * The reward mode and std division of what the formulas' values come from: the slow-motion iteration
 * on screen, else the latest iteration's group, else the settings (the next iteration's). So a
 * formula never stands beside a value another formula computed.
 */
export function useShownFormulaMode(): { reward: RewardMode; normalizeStd: boolean } {
  const fromPhase = useLab((s) => s.phases[0]);
  const group = useLab((s) => s.group);
  const reward = useLab((s) => s.train.reward);
  const normalizeStd = useLab((s) => s.train.advantage.normalizeStd);
  const source = fromPhase ?? group;
  return source ? { reward: source.reward, normalizeStd: source.normalizeStd } : { reward, normalizeStd };
}

/**
 * The formulas' live values, read from what the worker reported (the slow-motion phases when a
 * slow-motion iteration is on screen, else the latest iteration's group and metrics): the page
 * formats them, it computes nothing.
 */
export function useFormulaValues(): Partial<Record<string, string>> {
  const group = useLab((s) => s.group);
  const last = useLab((s) => s.series[s.series.length - 1]);
  const phases = useLab((s) => s.phases);
  return useMemo(() => {
    const gate = phases.find((p) => p.index === 5)?.facts;
    const adv = phases.find((p) => p.index === 6)?.facts;
    const upd7 = phases.find((p) => p.index === 7)?.facts;
    const upd = upd7?.epochs ? upd7 : undefined; // every group filtered: nothing was updated
    const t = group?.trajectories[0];
    const v: Partial<Record<string, string | undefined>> = {
      G: group ? String(group.trajectories.length) : undefined,
      // In slow motion: the followed group's first try, as the phases report it.
      R: gate ? `${f(gate.r1)} (try 1)` : t && !phases.length ? `${f(t.reward)} (try 1)` : undefined,
      A: adv ? `${f(adv.a1)} (try 1)` : t && !phases.length ? `${f(t.advantage)} (try 1)` : undefined,
      mean: f(adv ? adv.mean : phases.length ? undefined : group?.mean),
      std: f(adv ? adv.std : phases.length ? undefined : group?.std),
      ratio: upd ? `${f(upd.ratioMinLast, 4)} … ${f(upd.ratioMaxLast, 4)}` : undefined,
      // In slow motion, the update's last epoch; otherwise the latest charted iteration (never a mix of the two).
      clip: upd ? `${((upd.clipLast ?? 0) * 100).toFixed(1)}% clipped` : last && !phases.length ? `${(last.clipFrac * 100).toFixed(1)}% clipped` : undefined,
      kl: upd ? f(upd.klLast, 4) : phases.length ? undefined : f(last?.kl, 4),
      entropy: upd ? f(upd.entropyLast) : phases.length ? undefined : f(last?.entropy),
    };
    return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as Partial<Record<string, string>>;
  }, [group, last, phases]);
}
