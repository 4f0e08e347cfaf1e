import { useEffect, useState } from 'react';
import { useCompare } from '../../store/compareStore';
import { useLab } from '../../store/labStore';
import { useLessons } from '../../store/lessonStore';
import { useView } from '../../store/viewStore';
import { checkLesson, lessonById, LESSONS, type Lesson } from './lessonPlan';

/** Starts a lesson: records where the lab stands, sets it up, and points at the region it is about. */
export async function startLesson(lesson: Lesson): Promise<void> {
  const lab = useLab.getState();
  // A comparison still training would share the two cores with this lesson's iterations.
  if (lesson.region !== 'compare' && useCompare.getState().running) useCompare.getState().stop();
  useLessons.getState().begin(lesson.id, lab.iteration, lab.train.preference);
  useView.getState().setSpotlight(lesson.region);
  await lesson.setup();
  // The run's starting P is the one after setup (a lesson may change it).
  const run = useLessons.getState().run;
  if (run?.id === lesson.id) useLessons.setState({ run: { ...run, preference: useLab.getState().train.preference } });
  document.querySelector(`[data-region="${lesson.region}"]`)?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
}

/**
 * Watches the lab while a lesson runs: every trade-off evaluation is recorded with the P it was
 * made at, and after every change the lesson checks whether its task is done (then it explains).
 */
export function useLessonWatcher(): string | undefined {
  const [hint, setHint] = useState<string | undefined>(undefined);
  useEffect(() => {
    const check = () => {
      const run = useLessons.getState().run;
      if (!run) return;
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
      } else setHint(r.hint);
    };
    const offLab = useLab.subscribe((s, prev) => {
      // Recorded with the P the worker evaluated at (a slider may have moved since).
      if (s.tradeoff && s.tradeoff !== prev.tradeoff) useLessons.getState().observe({ preference: s.tradeoff.preference, point: s.tradeoff.current, iteration: s.tradeoff.iteration });
      if (s.tradeoff !== prev.tradeoff || s.phases !== prev.phases) check();
    });
    const offCompare = useCompare.subscribe((s, prev) => { if (s.runs !== prev.runs || s.running !== prev.running) check(); });
    return () => { offLab(); offCompare(); };
  }, []);
  return hint;
}

/** The running lesson, docked at the bottom of the screen so it stays beside what it is about. */
export function LessonDock({ hint }: { hint: string | undefined }) {
  const run = useLessons((s) => s.run);
  const close = useLessons((s) => s.close);
  // Folded to its title bar, the dock uncovers what lies under it (the trade-off view's figures at
  // 1280 × 800); the lesson goes on watching meanwhile.
  const [foldedRun, setFoldedRun] = useState<string | null>(null); // a new lesson opens unfolded
  const lesson = run ? lessonById(run.id) : undefined;
  if (!run || !lesson) return null;
  const folded = foldedRun === run.id;
  const setFolded = (fold: boolean) => setFoldedRun(fold ? run.id : null);
  const k = LESSONS.indexOf(lesson);
  const next = LESSONS[k + 1];
  const leave = () => { close(); useView.getState().setSpotlight(null); };
  return (
    <aside className={`lesson-dock${folded ? ' folded' : ''}`} aria-label="current lesson" data-testid="lesson-dock">
      <div className="dock-head">
        <strong>Lesson {k + 1} · {lesson.title}{folded && run.explanation ? ' · ✓ complete' : ''}</strong>
        <span>
          <button type="button" className="link" onClick={() => setFolded(!folded)} aria-expanded={!folded} aria-label={folded ? 'Show the lesson' : 'Fold the lesson away'}>{folded ? 'show' : 'fold'}</button>
          {' '}
          <button type="button" className="link" onClick={leave} aria-label="Close the lesson">✕</button>
        </span>
      </div>
      {folded ? null : run.explanation ? (
        <>
          <p className="lesson-done" role="status"><span className="tick" aria-hidden="true">✓</span> Lesson complete</p>
          <p>{run.explanation}</p>
          {next && <button type="button" className="primary" onClick={() => void startLesson(next)}>Next lesson: {next.title}</button>}
        </>
      ) : (
        <>
          <p className="lesson-task"><strong>Do this:</strong> {lesson.task}</p>
          {hint && <p className="small muted">{hint}</p>}
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
      <p className="small muted">Each lesson sets the lab up, points at one part of the screen, asks you to do one thing, and explains what happened with the numbers it produced. {done} of {LESSONS.length} complete{completed.length ? <> · <button type="button" className="link" onClick={forget}>start over</button></> : null}.</p>
      <ol className="lesson-list">
        {LESSONS.map((l, i) => (
          <li key={l.id} className={`lesson${completed.includes(l.id) ? ' complete' : ''}${active === l.id ? ' active' : ''}`}>
            <h3>{i + 1} · {l.title}</h3>
            <p>{l.idea}</p>
            <div className="lesson-actions">
              <button type="button" onClick={() => void startLesson(l)} aria-label={`Start lesson ${i + 1}: ${l.title}`}>Start lesson</button>
              {completed.includes(l.id) && <span className="good small">✓ Lesson complete</span>}
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
