import { useLab } from '../store/labStore';
import { useShallow } from 'zustand/react/shallow';

interface Lesson { title: string; body: string; try?: { label: string; run: () => void } }

/** Short guided lessons a teacher can run on a projector: each explains one idea and sets the lab up to show it. */
export function Lessons() {
  const s = useLab(useShallow((x) => ({ stepOnce: x.stepOnce, applyInstruction: x.applyInstruction, start: x.start, setTrain: x.setTrain })));
  const lessons: Lesson[] = [
    { title: '1 · Why orchestrate?', body: 'Compare the baselines in the trade-off view: GPT-5 with basic tools is accurate but expensive; the cheapest tool is cheap and often wrong. A router that knows when to escalate gets both. The ToolOrchestra paper reports its 8B orchestrator beating GPT-5 with basic tools at about 30% of the cost (Table 1).' },
    { title: '2 · The group is the baseline', body: 'GRPO samples G rollouts of the same task and scores each against its siblings: A = (R − mean)/std. Press Step and open the inspector: the trajectory that solved the task most cheaply gets the largest advantage; failures get R = 0.', try: { label: 'Run one iteration', run: () => void s.stepOnce() } },
    { title: '3 · The cost sign', body: 'M(τ) holds −cost, so after min–max normalisation the cheapest successful trajectory scores 1 on the cost dimension. (The official code normalises with −cost bounds but puts +cost in the numerator, rewarding spending; this lab does not.) Watch the cost chart fall as the policy learns.', try: { label: 'Budget preset, then train', run: () => { s.applyInstruction('Budget'); s.start(); } } },
    { title: '4 · One policy, any preference', body: 'Trained with a random P per task, one network follows whatever P the sliders set: move “Cost weight” and the ★ moves along the blue curve without retraining.', try: { label: 'Train with random P', run: () => s.setTrain({ preferenceMode: 'random' }) } },
    { title: '5 · Why the loss is flat', body: 'With one epoch on fresh samples the ratio π/π_old is exactly 1: nothing is clipped and the surrogate is ≈ 0 by construction — its gradient is what matters. Set μ > 1 to see the clip fraction rise.', try: { label: 'μ = 4', run: () => s.setTrain({ epochs: 4 }) } },
    { title: '6 · Homogeneous groups teach nothing', body: 'If all G rollouts get the same reward, A = 0. The paper drops groups with reward std < 0.1; the “filtered” share is on the diagnostics. Raise G to make mixed groups more likely.' },
  ];
  return (
    <div className="lessons">
      {lessons.map((l) => (
        <article key={l.title} className="lesson">
          <h3>{l.title}</h3>
          <p>{l.body}</p>
          {l.try && <button type="button" onClick={l.try.run}>{l.try.label}</button>}
        </article>
      ))}
    </div>
  );
}
