// What the lessons set up and what they put back: slow motion from a fresh iteration, the shipped
// pretrained policy, the default P a lesson about P starts from, and training settings a lesson needs
// (the paper's reward, μ = 4). A setting a lesson changes is put back when the lesson ends (Lessons.tsx),
// so it never stays in a shared link; P is the student's to move, and stays where they leave it.

import { create } from 'zustand';
import { DEFAULT_PREFERENCE, DEFAULT_PREFERENCE_LABEL, describePreference } from '../../core/preference';
import { REWARD_MODE_LABELS, type RewardMode } from '../../core/grpo/rewardModes';
import type { TrainConfig } from '../../core/grpo/config';
import { useLab } from '../../store/labStore';
import { useView } from '../../store/viewStore';

/** A setting a lesson changed: what putting it back does (for the lesson box), and the putting back. */
export interface PutBack { note: string; run(): Promise<void> }

/** The setting the running lesson changed, until it is put back, and what was put back last (for the lesson box). */
interface PutBackState {
  pending: { lesson: string; back: PutBack } | null;
  done: { lesson: string; note: string } | null;
}
export const usePutBack = create<PutBackState>(() => ({ pending: null, done: null }));

/** Remembers what a lesson changed, to put back when it ends. */
export function rememberPutBack(lesson: string, back: PutBack | null | void): void {
  usePutBack.setState({ pending: back ? { lesson, back } : null, done: null });
}

/** Puts back what the lesson changed, if anything waits to be. */
export async function putBackNow(): Promise<void> {
  const p = usePutBack.getState().pending;
  if (!p) return;
  usePutBack.setState({ pending: null, done: { lesson: p.lesson, note: p.back.note } });
  await p.back.run();
}

/** Leaves any slow-motion iteration, pauses, and shows the slow-motion tab. */
export async function freshSlowMotion(): Promise<void> {
  const lab = useLab.getState();
  if (lab.running) lab.pause();
  await lab.closePhases();
  useView.getState().showTab('Slow motion');
}

/** The shipped pretrained policy (trained with random P), loaded again unless it is in, untouched (Undo brings back
 * the one it replaces). */
export async function pretrained(): Promise<void> {
  const lab = useLab.getState();
  if (lab.running) lab.pause();
  if (lab.policyOrigin !== 'pretrained' || lab.iteration > 0) await lab.loadPretrained();
}

/**
 * The sliders at the default P, for a lesson whose task is to move them (set, evaluated and said before
 * the lesson's first check, so nothing an earlier lesson left is taken for the student's move).
 */
export async function defaultPreference(lesson: string): Promise<void> {
  const lab = useLab.getState();
  const was = lab.train.preference;
  if (JSON.stringify(was) === JSON.stringify(DEFAULT_PREFERENCE)) return;
  lab.setPreference({ ...DEFAULT_PREFERENCE, tools: {} });
  await lab.flushSettings(); // the new P sent and the ★ evaluated at it
  lab.notify('info', `${lesson} starts from the ${DEFAULT_PREFERENCE_LABEL.replace(/^Default/, 'default preference')}; `
    + `the sliders were at ${describePreference(was)}.`, 'lesson');
}

/**
 * Sets one training setting for a lesson (applied before the lesson's first iteration) and returns
 * how to put it back: only while it still holds the lesson's value (a user who changed it since keeps
 * theirs). Null when it already had that value.
 */
async function setForLesson<K extends keyof TrainConfig>(
  key: K, value: TrainConfig[K], words: (v: TrainConfig[K]) => string, lesson: string,
): Promise<PutBack | null> {
  const lab = useLab.getState();
  const was = lab.train[key];
  if (was === value) return null;
  lab.setTrain({ [key]: value } as Partial<TrainConfig>);
  lab.notify('info', `${lesson} set ${words(value)} (it was ${words(was)}); it puts it back when the lesson ends.`);
  await lab.flushSettings();
  return {
    note: words(was),
    async run() {
      const now = useLab.getState();
      if (now.train[key] !== value) return;
      now.setTrain({ [key]: was } as Partial<TrainConfig>);
      await now.flushSettings();
      now.notify('info', `${lesson} put back ${words(was)}, as before the lesson.`);
    },
  };
}

const rewardWords = (r: RewardMode) => `the reward "${REWARD_MODE_LABELS[r]}"`;

/** The paper's reward for a lesson about it (the official code's column is shown beside it only there). */
export const paperReward = (lesson: string): Promise<PutBack | null> =>
  setForLesson('reward', 'toolorchestra', rewardWords, lesson);

/** A reward that gates on the outcome and reads P, for the gating lesson: the paper's where the set one does not. */
export const gatedReward = (lesson: string): Promise<PutBack | null> => {
  const r = useLab.getState().train.reward;
  return r === 'weighted' || r === 'outcome' ? paperReward(lesson) : Promise.resolve(null);
};

/** μ epochs of the clipped surrogate per iteration. */
export const epochs = (mu: number, lesson: string): Promise<PutBack | null> =>
  setForLesson('epochs', mu, (v) => `μ = ${v}`, lesson);
