import { memo } from 'react';
import { useLab } from '../store/labStore';
import { useView } from '../store/viewStore';
import { useShallow } from 'zustand/react/shallow';
import { INSTRUCTION_PRESETS } from '../core/instructionPresets';
import type { Preference } from '../core/preference';
import { REWARD_MODE_INFO, type RewardMode } from '../core/grpo/rewardModes';
import { RECIPE_IN_WORDS, recipePatch } from '../core/grpo/recipe';
import type { TradeoffAxis } from '../worker/protocol';

function Slider({ label, value, onChange, hint }: { label: string; value: number; onChange: (v: number) => void; hint?: string }) {
  return (
    <label className="slider" title={hint}>
      <span className="slider-name">{label}</span>
      <input type="range" min={0} max={1} step={0.05} value={value} aria-label={label} onChange={(e) => onChange(Number(e.target.value))} />
      <span className="value" aria-hidden="true">{value.toFixed(2)}</span>
    </label>
  );
}


/** Whether P weighs any tool. */
const weighsTools = (p: Preference): boolean => Object.values(p.tools).some((w) => w > 0);

/**
 * What tool weights pay for. It depends on the reward a policy was trained with, which need not be
 * the one selected now (the shipped policy's is success-first), so the note says both, then which
 * one training here uses.
 */
function toolWeightsNote(mode: RewardMode): string {
  const both = "What these weights pay for depends on the policy's training reward. " +
    "The paper's pays for each call of a preferred tool, and only that, when the outcome weighs 0: " +
    'the policy adds such calls, at a higher cost, and may hand the answer to a weaker preferred model. ' +
    "Success-first (the shipped policy's) pays for the share of calls to preferred tools, on top of the 1 a success earns: " +
    'calls move mostly where the answer stays.';
  const { label, readsPreference } = REWARD_MODE_INFO[mode];
  const now = readsPreference ? `Training here uses the ${label} reward.`
    : `Training here uses the ${label} reward, which does not read P: ` +
      'these weights change nothing in training, though the policy still reads them as an input.';
  return `${both} ${now}`;
}

/**
 * The instruction presets and the three main weights of P (outcome, cost, latency): the first
 * screen's step 1, where they are in view on a 1280 × 800 screen without scrolling. Memoised: the
 * first screen re-renders with every training update, these only when P changes.
 */
export const PreferenceControls = memo(function PreferenceControls() {
  const { preference: p, setPreference, applyInstruction } = useLab(
    useShallow((s) => ({
      preference: s.train.preference, setPreference: s.setPreference, applyInstruction: s.applyInstruction,
    })),
  );
  const press = (name: string, axis: TradeoffAxis) => {
    applyInstruction(name);
    useView.getState().setTradeoffAxis(axis);
  };
  const put = (patch: Partial<Preference>) => setPreference({ ...p, ...patch });
  return (
    <div className="pref-controls" data-region="prefs">
      <div className="presets" role="group" aria-label="instruction presets">
        {INSTRUCTION_PRESETS.map((x) => (
          <button key={x.name} type="button" title={`“${x.instruction}”`} onClick={() => press(x.name, x.axis)}>
            {x.name}
          </button>
        ))}
      </div>
      <Slider label="Outcome weight" value={p.outcome} onChange={(v) => put({ outcome: v })}
        hint="weight on solving the task (rewards are 0 for failures anyway)" />
      <Slider label="Cost weight" value={p.cost} onChange={(v) => put({ cost: v })}
        hint="weight on −cost, normalised within each group" />
      <Slider label="Latency weight" value={p.latency} onChange={(v) => put({ latency: v })}
        hint="weight on −latency, normalised within each group" />
    </div>
  );
});

/** The rest of P (one weight per tool) and how training samples P; the main weights are in the first screen. */
export function PreferencePanel() {
  const { preference: p, catalog, setPreference, mode, reward, advantage, setTrain } = useLab(
    useShallow((s) => ({
      preference: s.train.preference, catalog: s.catalog, setPreference: s.setPreference, mode: s.train.preferenceMode,
      reward: s.train.reward, advantage: s.train.advantage, setTrain: s.setTrain,
    })),
  );
  const put = (patch: Partial<Preference>) => setPreference({ ...p, ...patch });
  const applyRecipe = () => {
    setTrain(recipePatch({ advantage }));
    useLab.getState().notify('info', `Training now uses the shipped policy's recipe: ${RECIPE_IN_WORDS}, ` +
      'where a run pauses (Settings → Training). Train from scratch to train one policy for every preset.', 'recipe');
  };
  return (
    <section className="panel prefs" aria-label="preferences">
      <h2>Preferences P: tools and training</h2>
      <p className="small muted">
        Outcome, cost and latency: the sliders in step 1 above. Moving any weight re-evaluates the current policy at the
        new P (the ★ in the trade-off view) without retraining.
      </p>
      {weighsTools(p) && <p className="small field-note" role="note">{toolWeightsNote(reward)}</p>}
      <details>
        <summary>Tool preferences</summary>
        {catalog.tools.map((t) => (
          <Slider key={t.id} label={`Prefer ${t.id}`} value={p.tools[t.id] ?? 0}
            onChange={(v) => put({ tools: { ...p.tools, [t.id]: v } })} hint={t.description} />
        ))}
      </details>
      <fieldset className="mode">
        <legend className="small muted">Training preferences</legend>
        <label><input type="radio" name="pmode" checked={mode === 'fixed'}
          onChange={() => setTrain({ preferenceMode: 'fixed' })} /> the sliders’ P</label>
        <label><input type="radio" name="pmode" checked={mode === 'random'}
          onChange={() => setTrain({ preferenceMode: 'random' })} /> random P per task (the paper’s way)</label>
      </fieldset>
      {mode === 'random' && reward === 'toolorchestra' && (
        <p className="small field-note" role="note" data-testid="random-p-reward-note">
          Under the paper’s reward, one policy for every P can give up answers for presets that weigh tools or cost
          (docs/REPRODUCTION.md, “One policy, any preference”). The shipped policy’s recipe: {RECIPE_IN_WORDS}.{' '}
          <button type="button" className="link" onClick={applyRecipe}>Use that recipe</button>
        </p>
      )}
    </section>
  );
}
