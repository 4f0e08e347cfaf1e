import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useLab, type LabState } from '../store/labStore';
import { useView } from '../store/viewStore';
import { count } from '../core/count';
import { REWARD_MODE_LABELS } from '../core/grpo/rewardModes';
import { SHIPPED_RECIPE } from '../core/grpo/recipe';
import { PreferenceControls } from './PreferencePanel';
import { headline } from './shownNumbers';

/** What the policy on show is, in one line under the Train buttons (`settings`: what training on would use, in words). */
function originLine(origin: LabState['policyOrigin'], running: boolean, iteration: number, settings: string): string {
  const its = count(iteration, 'iteration');
  if (running) {
    return `Training ${origin === 'pretrained' ? 'on from the pretrained policy' : origin === 'scratch' ? 'from scratch' : 'the current policy'}` +
      ` · iteration ${iteration}`;
  }
  switch (origin) {
    case 'pretrained': return iteration ? `Now: the pretrained policy, trained on for ${its}.`
      : `Now: the shipped pretrained policy (random P, ${SHIPPED_RECIPE.reward} reward). ` +
        `Continuing trains it with the settings (now ${settings}).`;
    case 'loading': return 'Loading the policy…';
    case 'imported': return iteration ? `Now: an imported policy, trained on for ${its}.` : 'Now: an imported policy.';
    case 'restored': return `Now: a restored policy (iteration ${iteration}).`;
    case 'saved': return `Now: your policy from this browser, trained for ${its}.`;
    default: return iteration ? `Now: a policy trained from scratch for ${its}.` : 'Now: a fresh random policy, not trained yet.';
  }
}

/**
 * The first screen: the question and its answer in one paragraph (with the lab's own live numbers
 * beside the paper's), then the three things to do — move the sliders (here, in view without
 * scrolling), train, look inside one iteration. The trade-off view beside it shows the answer.
 */
export function FirstScreen() {
  const s = useLab(useShallow((x) => ({
    tradeoff: x.tradeoff, stale: x.tradeoffStale, catalog: x.catalog, preference: x.train.preference, running: x.running,
    origin: x.policyOrigin, iteration: x.iteration, sawPhases: x.phases.length > 0,
    reward: x.train.reward, preferenceMode: x.train.preferenceMode,
    trainFromScratch: x.trainFromScratch, continueFromPretrained: x.continueFromPretrained, nextPhase: x.nextPhase, pause: x.pause,
  })));
  const [firstP] = useState(s.preference);
  const moved = s.preference !== firstP;
  const t = s.tradeoff;
  // As shown here, and the ratio from the numbers as shown (Lesson 1 quotes the same).
  const h = t ? headline(t, s.catalog) : null;
  const slowMotion = () => {
    useView.getState().showTab('Slow motion');
    void s.nextPhase();
    document.querySelector('[data-region="bottom"]')?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };
  const settings = `the ${REWARD_MODE_LABELS[s.reward]} reward, ${s.preferenceMode === 'random' ? 'a random P per task' : 'your P'}`;
  return (
    <section className="panel first-screen" aria-labelledby="first-q" data-region="start">
      <h2 id="first-q">Can a small router beat always calling the biggest model?</h2>
      <p className="answer">
        Yes, if it learns <em>when</em> to call it. NVIDIA’s ToolOrchestra trained an 8B orchestrator with
        Group Relative Policy Optimization (GRPO) that beat GPT-5 with tools on HLE (37.1% against 35.1%) at about
        30% of its cost: it hands queries and programs to cheap models and calls GPT-5 for the answer.
        Here a tiny policy learns the same trade-off in a simulated world of tools and models
        (Paper vs lab says where the lab departs).
        {h ? <>
          {s.stale
            ? ' Right now the new policy is being measured on held-out tasks;'
            : <> Right now, at your preferences, it solves <strong data-testid="first-accuracy">{h.accuracy}</strong> of
              held-out tasks at {h.cost} each (★);</>}
          {` GPT-5 with tools solves ${h.toolsAccuracy} at ${h.toolsCost}`}
          {s.stale ? '.' : ` (the ★ costs ${h.costShare}% of that).`}
        </> : null}
      </p>
      <ol className="first-steps">
        <li className={moved ? 'did' : ''}>
          <strong>Move the preference sliders</strong> (or press a preset): the ★ in the trade-off view follows
          your P without retraining.
          <PreferenceControls />
        </li>
        <li className={s.iteration > 0 ? 'did' : ''}>
          <strong>Train</strong> and watch the curves climb towards the baselines (dashed).
          <div className="row">
            <button type="button" className="primary" onClick={() => void s.trainFromScratch()}>Train from scratch</button>
            <button type="button" onClick={() => void s.continueFromPretrained()}>Continue from the pretrained policy</button>
          </div>
          <span className="small muted keeps-room">
            <span data-testid="policy-origin">{originLine(s.origin, s.running, s.iteration, settings)}</span>
            {/* The longest wording, unseen, keeps the line's height whatever it says (styles.css, .keeps-room). */}
            <span className="room" aria-hidden="true">{originLine('pretrained', false, 0, settings)}</span>
          </span>
        </li>
        <li className={s.sawPhases ? 'did' : ''}>
          <strong>Look inside one GRPO iteration</strong>, phase by phase, with its real numbers.
          <div className="row"><button type="button" onClick={slowMotion}>Slow motion</button></div>
        </li>
      </ol>
    </section>
  );
}
