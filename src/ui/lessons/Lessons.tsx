// The lessons on the page: starting one (it puts back what the previous one changed, sets the lab
// up and brings its subject into view), watching the lab until its task is done, the lesson box
// docked where it covers nothing the lesson points at, and the list of lessons with their progress.

import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { PHASE_NAMES } from '../../core/grpo/phaseNames';
import { useCompare } from '../../store/compareStore';
import { useLab } from '../../store/labStore';
import { useLessons } from '../../store/lessonStore';
import { useView } from '../../store/viewStore';
import { checkLesson, CURRENT_PHASE, lessonById, LESSONS, type Lesson } from './lessonPlan';
import { putBackNow, rememberPutBack, usePutBack } from './lessonSetup';
import { bringIntoView, useDockSpot } from './lessonView';

/** After React has drawn what just changed: two frames. */
const afterPaint = (f: () => void) => requestAnimationFrame(() => requestAnimationFrame(f));

/** Starts a lesson: puts back what the last one changed, sets the lab up, and points at what it is about. */
export async function startLesson(lesson: Lesson): Promise<void> {
  await putBackNow();
  const lab = useLab.getState();
  // A comparison still training would share the two cores with this lesson's iterations.
  if (lesson.region !== 'compare' && useCompare.getState().running) useCompare.getState().stop();
  useLessons.getState().begin(lesson.id, lab.iteration, lab.train.preference);
  useView.getState().setSpotlight(lesson.region);
  const back = await lesson.setup();
  const run = useLessons.getState().run;
  if (run?.id !== lesson.id) { // another lesson started meanwhile: it owns the lab now
    if (back) await back.run();
    return;
  }
  rememberPutBack(lesson.id, back);
  // The run's starting P is the one after setup (a lesson may change it), and what the lab showed while it was
  // set up is not the student's doing: the observations, and the checks, start now.
  useLessons.setState({ run: { ...run, preference: useLab.getState().train.preference, observations: [], settingUp: false } });
  afterPaint(() => bringIntoView(lesson.subject(false).keep));
}

/** Ends the running lesson: closes its box and puts back what it changed. */
function leaveLesson(): void {
  useLessons.getState().close();
  useView.getState().setSpotlight(null);
  void putBackNow();
}

/**
 * Watches the lab while a lesson runs: every trade-off evaluation is recorded with the P it was
 * made at, and after every change the lesson checks whether its task is done (then it explains,
 * and brings what it explains into view). Once done, what it changed is put back as soon as no
 * slow-motion iteration it used is open.
 */
export function useLessonWatcher(): string | undefined {
  const [hint, setHint] = useState<string | undefined>(undefined);
  useEffect(() => {
    const check = () => {
      const run = useLessons.getState().run;
      if (!run || run.settingUp) return;
      const r = checkLesson(run);
      // Once done, the explanation follows the screen: a slider still moving (a held arrow key, a
      // drag) changes the numbers it quotes, and an explanation of the first step would contradict them.
      if (run.explanation) {
        if (r.done && r.explanation !== run.explanation) useLessons.getState().complete(r.explanation);
        return;
      }
      if (r.done) {
        useLessons.getState().complete(r.explanation);
        useView.getState().setSpotlight(null);
        setHint(undefined);
        const lesson = lessonById(run.id);
        if (lesson) afterPaint(() => bringIntoView(lesson.subject(true).keep));
      } else setHint(r.hint);
    };
    const settle = () => {
      const run = useLessons.getState().run, open = useLab.getState().phases.length;
      const pending = usePutBack.getState().pending;
      const ended = open === 0 || open >= PHASE_NAMES.length;
      if (run?.explanation && pending?.lesson === run.id && ended) void putBackNow();
    };
    const offLab = useLab.subscribe((s, prev) => {
      // Recorded with the P the worker evaluated at (a slider may have moved since).
      if (s.tradeoff && s.tradeoff !== prev.tradeoff) {
        const t = s.tradeoff;
        useLessons.getState().observe({ preference: t.preference, point: t.current, iteration: t.iteration });
      }
      if (s.tradeoff !== prev.tradeoff || s.phases !== prev.phases || s.tradeoffStale !== prev.tradeoffStale) check();
      if (s.phases !== prev.phases) settle();
      // A new slow-motion phase comes into view while a lesson about slow motion runs (however the page got
      // there: a lesson reached with "Next lesson" starts wherever the last one left the page).
      if (s.phases.length > prev.phases.length) {
        const run = useLessons.getState().run, lesson = run && lessonById(run.id);
        const keep = lesson?.subject(Boolean(run?.explanation)).keep ?? [];
        if (keep.includes(CURRENT_PHASE)) afterPaint(() => bringIntoView(run?.explanation ? [CURRENT_PHASE] : keep));
      }
    });
    const offCompare = useCompare.subscribe((s, prev) => {
      if (s.runs !== prev.runs || s.running !== prev.running) check();
    });
    const offRun = useLessons.subscribe((s, prev) => {
      if (s.run?.startedAt !== prev.run?.startedAt) setHint(undefined); // a new lesson: the last one's hint goes
      if (prev.run?.settingUp && s.run && !s.run.settingUp) check(); // set up: the lesson looks at the lab as it now is
      if (s.run?.explanation && !prev.run?.explanation) settle();
    });
    return () => { offLab(); offCompare(); offRun(); };
  }, []);
  return hint;
}

/** What the lesson changed and puts back, or has put back, in one line under its text. */
function PutBackLine({ lesson, done }: { lesson: string; done: boolean }) {
  const pending = usePutBack((s) => (s.pending?.lesson === lesson ? s.pending.back.note : null));
  const was = usePutBack((s) => (s.done?.lesson === lesson ? s.done.note : null));
  if (pending) {
    const when = done ? 'once this slow-motion iteration ends (Next phase to phase 8, or Leave) or you close the lesson'
      : 'when the lesson ends';
    return <p className="small muted" data-testid="lesson-put-back">Back to {pending} {when}.</p>;
  }
  return was ? <p className="small muted" data-testid="lesson-put-back">Back to {was}, as before the lesson.</p> : null;
}

/** The running lesson, docked beside what it is about and over none of it. */
export function LessonDock({ hint }: { hint: string | undefined }) {
  const run = useLessons((s) => s.run);
  // Folded to its title bar, the dock uncovers what lies under it; the lesson goes on watching meanwhile.
  const [foldedRun, setFoldedRun] = useState<string | null>(null); // a new lesson opens unfolded
  const [openedRun, setOpenedRun] = useState<string | null>(null); // opened by hand where it has no room
  const ref = useRef<HTMLElement | null>(null);
  const lesson = run ? lessonById(run.id) : undefined;
  const done = !!run?.explanation;
  const subject = lesson ? lesson.subject(done) : null;
  const spot = useDockSpot(ref, subject, `${run?.id}:${done}:${foldedRun}:${hint ?? ''}`);
  if (!run || !lesson) return null;
  const cramped = !!spot?.cramped && openedRun !== run.id;
  const folded = foldedRun === run.id || cramped;
  const setFolded = (fold: boolean) => {
    setFoldedRun(fold ? run.id : null);
    if (!fold && cramped) setOpenedRun(run.id);
  };
  const k = LESSONS.indexOf(lesson);
  const next = LESSONS[k + 1];
  const p = spot && (spot.cramped ? cramped : true) ? spot.place : null;
  const style: CSSProperties | undefined = p ? {
    left: p.left, right: 'auto', bottom: p.bottom,
    width: folded ? 'auto' : p.width, maxWidth: p.width, maxHeight: p.maxHeight,
  } : undefined;
  return (
    <aside ref={ref} className={`lesson-dock${folded ? ' folded' : ''}`} style={style} aria-label="current lesson"
      data-testid="lesson-dock">
      <div className="dock-head">
        <strong>Lesson {k + 1} · {lesson.title}{folded && run.explanation ? ' · ✓ complete' : ''}</strong>
        <span>
          <button type="button" className="link" onClick={() => setFolded(!folded)} aria-expanded={!folded}
            aria-label={folded ? 'Show the lesson' : 'Fold the lesson away'}>{folded ? 'show' : 'fold'}</button>
          {' '}
          <button type="button" className="link" onClick={leaveLesson} aria-label="Close the lesson">✕</button>
        </span>
      </div>
      {folded ? null : run.explanation ? (
        <>
          <p className="lesson-done" role="status">
            <span className="tick" aria-hidden="true">✓</span> Lesson complete
          </p>
          <p>{run.explanation}</p>
          <PutBackLine lesson={run.id} done />
          {next && (
            <button type="button" className="primary" onClick={() => void startLesson(next)}>
              Next lesson: {next.title}
            </button>
          )}
        </>
      ) : (
        <>
          <p className="lesson-task"><strong>Do this:</strong> {lesson.task}</p>
          {hint && <p className="small muted" data-testid="lesson-hint">{hint}</p>}
          <PutBackLine lesson={run.id} done={false} />
        </>
      )}
    </aside>
  );
}

/** The list of lessons: what each is about, Start lesson, and which are complete (kept in this browser). */
export function Lessons() {
  const completed = useLessons((s) => s.completed);
  const active = useLessons((s) => s.run?.id);
  const forget = useLessons((s) => s.forget);
  // Only this lab's lessons count (storage may hold anything).
  const done = LESSONS.filter((l) => completed.includes(l.id)).length;
  return (
    <div className="lessons" data-region="lessons">
      <p className="small muted">
        Each lesson sets the lab up, points at one part of the screen, asks you to do one thing, and explains what
        happened with the numbers it produced; a setting it changes is put back when it ends.
        {' '}{done} of {LESSONS.length} complete
        {completed.length ? <> · <button type="button" className="link" onClick={forget}>start over</button></> : null}.
      </p>
      <ol className="lesson-list">
        {LESSONS.map((l, i) => (
          <li key={l.id}
            className={`lesson${completed.includes(l.id) ? ' complete' : ''}${active === l.id ? ' active' : ''}`}>
            <h3>{i + 1} · {l.title}</h3>
            <p>{l.idea}</p>
            <div className="lesson-actions">
              <button type="button" onClick={() => void startLesson(l)}
                aria-label={`Start lesson ${i + 1}: ${l.title}`}>
                Start lesson
              </button>
              {completed.includes(l.id) && <span className="good small">✓ Lesson complete</span>}
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
