// Lesson progress: which lesson is running, what the lab looked like when it started, what the
// lesson has seen happen since (each trade-off evaluation with the P it was made at), and which
// lessons are complete — kept in this browser (localStorage), so a student can come back.

import { create } from 'zustand';
import type { Preference } from '../core/preference';
import type { TradeoffPoint } from '../worker/protocol';

const KEY = 'orchestra-lab.lessons.v1';
/** More lesson ids than a lab has are no progress of its own. */
const MAX_KEPT = 64;

/** One trade-off evaluation seen while a lesson ran: the sliders' P and where the ★ landed. */
export interface Observation { preference: Preference; point: TradeoffPoint; iteration: number }

export interface LessonRun {
  id: string;
  startedAt: number;
  /** The iteration and P when the lesson started. */
  iteration: number;
  preference: Preference;
  observations: Observation[];
  /** While the lesson sets up its own state: nothing the lab shows then is the student's doing, and nothing is checked. */
  settingUp: boolean;
  /** Set when the lesson saw the user do its task: the explanation, with the numbers of that moment. */
  explanation: string | null;
}

export interface LessonState {
  run: LessonRun | null;
  completed: string[];
  begin(id: string, iteration: number, preference: Preference): void;
  observe(o: Observation): void;
  complete(explanation: string): void;
  close(): void;
  forget(): void;
}

function load(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    // Storage is outside the lab's control: only short names, each once, and no more than any lab has lessons
    // (a list of 200,000 once showed "200000 of 7 complete"; the page also counts only the lessons it has).
    const isId = (x: unknown): x is string => typeof x === 'string' && /^[a-z0-9-]{1,64}$/.test(x);
    const ids = Array.isArray(v) ? v.filter(isId) : [];
    return [...new Set(ids)].slice(0, MAX_KEPT);
  } catch {
    return [];
  }
}

function save(ids: readonly string[]): void {
  try { localStorage.setItem(KEY, JSON.stringify(ids)); } catch { /* not kept: the page still works */ }
}

export const useLessons = create<LessonState>((set, get) => ({
  run: null,
  completed: load(),
  begin(id, iteration, preference) {
    set({ run: { id, startedAt: Date.now(), iteration, preference, observations: [], settingUp: true, explanation: null } });
  },
  observe(o) {
    const run = get().run;
    if (run && !run.explanation && !run.settingUp) set({ run: { ...run, observations: [...run.observations.slice(-19), o] } });
  },
  complete(explanation) {
    const run = get().run;
    if (!run) return;
    const completed = get().completed.includes(run.id) ? get().completed : [...get().completed, run.id];
    save(completed);
    set({ run: { ...run, explanation }, completed });
  },
  close() {
    set({ run: null });
  },
  forget() {
    save([]);
    set({ completed: [] });
  },
}));
