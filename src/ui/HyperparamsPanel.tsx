import type { ReactNode } from 'react';
import { groupOfOneNote, REWARD_MODE_LABELS, REWARD_MODES } from '../core/grpo/rewardModes';
import { MIN_LEARNING_RATE, type TrainConfig } from '../core/grpo/config';
import { SHIPPED_RECIPE } from '../core/grpo/recipe';
import { useLab } from '../store/labStore';
import { NumberField } from './NumberField';

const Num = NumberField;

function Group({ title, children }: { title: string; children: ReactNode }) {
  return <fieldset className="hp-group"><legend>{title}</legend>{children}</fieldset>;
}

/** Every GRPO knob: batch and group size, optimiser, clipping, KL, entropy, epochs, turns, reward, advantage, policy size. */
export function HyperparamsPanel() {
  const t = useLab((s) => s.train);
  const setTrain = useLab((s) => s.setTrain);
  const put = (patch: Partial<TrainConfig>) => setTrain(patch);
  return (
    <section className="panel hyper" aria-label="hyperparameters">
      <Group title="Rollouts">
        <Num integer label="B (tasks per iteration)" value={t.batchTasks} min={1} max={256} step={1}
          onChange={(v) => put({ batchTasks: v })} />
        <Num integer label="G (rollouts per task)" value={t.groupSize} min={1} max={64} step={1}
          onChange={(v) => put({ groupSize: v })}
          hint="rollouts of the same task that GRPO compares (G ≥ 2; the note below says what G = 1 does)" />
        {t.groupSize === 1 && <p className="small field-note" role="note">{groupOfOneNote(t.reward)}</p>}
        <Num integer label="max turns" value={t.sim.maxTurns} min={4} max={50} step={1}
          onChange={(v) => put({ sim: { ...t.sim, maxTurns: v } })} />
      </Group>
      <Group title="Update">
        <Num label="learning rate" value={t.learningRate} min={MIN_LEARNING_RATE} max={1} step={0.0005}
          onChange={(v) => put({ learningRate: v })} />
        <Num integer label="lr → 0 by iteration (0 = constant)" value={t.lrDecay?.end ?? 0} min={0} max={1_000_000} step={100}
          onChange={(v) => put({ lrDecay: v > 0 ? { start: 0, end: v } : null })}
          hint={'the learning rate falls linearly from the run\'s start to 0 at this iteration, ' +
            `as Hugging Face's and TRL's default schedule does (the shipped recipe: ${SHIPPED_RECIPE.iterations}), ` +
            'and the run pauses there; 0 keeps it constant, as veRL does'} />
        <Num integer label="μ (epochs)" value={t.epochs} min={1} max={16} step={1} onChange={(v) => put({ epochs: v })}
          hint="with μ = 1 the ratio is 1 and nothing is clipped" />
        <Num label="ε low" value={t.epsLow} min={0} max={1} step={0.01} onChange={(v) => put({ epsLow: v })} />
        <Num label="ε high" value={t.epsHigh} min={0} max={5} step={0.01} onChange={(v) => put({ epsHigh: v })} />
        <Num label="β (KL)" value={t.beta} min={0} max={10} step={0.01} onChange={(v) => put({ beta: v })}
          hint="k3 KL to the policy at the start of the run" />
        <Num label="entropy coef" value={t.entropyCoef} min={0} max={10} step={0.001}
          onChange={(v) => put({ entropyCoef: v })} />
        <label className="field" title="veRL's clip_ratio_c: for a negative advantage the loss is capped at −A·c, so a ratio far above 1 cannot blow it up">
          <span>dual clip c</span>
          <select aria-label="dual clip" value={t.dualClip === null ? 'off' : String(t.dualClip)} onChange={(e) => put({ dualClip: e.target.value === 'off'
            ? null : Number(e.target.value) })}>
            <option value="off">off (default)</option>
            {[...new Set([3, 10, ...(t.dualClip !== null ? [t.dualClip] : [])])].map((c) => <option key={c}
              value={String(c)}>{c}{c === 3 ? ' (veRL’s default)' : c === 10 ? ' (ToolOrchestra’s run)' : ''}</option>)}
          </select></label>
        <Num label="grad-norm clip" value={t.maxGradNorm} min={0.01} max={100} step={0.1}
          onChange={(v) => put({ maxGradNorm: v })} />
        <label className="field"><span>aggregation</span>
          <select aria-label="aggregation" value={t.aggregation} onChange={(e) => put({ aggregation: e.target.value as TrainConfig['aggregation'] })}>
            <option value="token-mean">token-mean (paper’s code)</option><option value="seq-mean-token-mean">seq-mean-token-mean (DeepSeekMath)</option>
          </select></label>
      </Group>
      <Group title="Reward and advantage">
        <label className="field"><span>reward</span>
          <select aria-label="reward mode" value={t.reward} onChange={(e) => put({ reward: e.target.value as TrainConfig['reward'] })}>
            {REWARD_MODES.map((m) => <option key={m} value={m}>{REWARD_MODE_LABELS[m]}</option>)}
          </select></label>
        <label className="field"><span>divide by std</span><input type="checkbox" aria-label="divide by std"
          checked={t.advantage.normalizeStd}
          onChange={(e) => put({ advantage: { ...t.advantage, normalizeStd: e.target.checked } })} /></label>
        <Num label="clip |A| (0 = off)" value={t.advantage.clip ?? 0} min={0} max={100} step={0.5}
          onChange={(v) => put({ advantage: { ...t.advantage, clip: v > 0 ? v : null } })} />
        <Num label="filter std < (0 = off)" value={t.advantage.filterStd ?? 0} min={0} max={10} step={0.05}
          onChange={(v) => put({ advantage: { ...t.advantage, filterStd: v > 0 ? v : null } })} />
        {t.reward === 'weighted' && (
          <>
            <Num label="w outcome" value={t.weighted.wOutcome} min={-10} max={10} step={0.1}
              onChange={(v) => put({ weighted: { ...t.weighted, wOutcome: v } })} />
            <Num label="w efficiency" value={t.weighted.wEfficiency} min={-10} max={10} step={0.1}
              onChange={(v) => put({ weighted: { ...t.weighted, wEfficiency: v } })} />
            <Num label="w preference" value={t.weighted.wPreference} min={-10} max={10} step={0.1}
              onChange={(v) => put({ weighted: { ...t.weighted, wPreference: v } })} />
            <Num label="per call" value={t.weighted.perCall} min={0} max={10} step={0.01}
              onChange={(v) => put({ weighted: { ...t.weighted, perCall: v } })} />
            <Num label="per token" value={t.weighted.perToken} min={0} max={1} step={0.0001}
              onChange={(v) => put({ weighted: { ...t.weighted, perToken: v } })} />
            <Num label="latency target s" value={t.weighted.latencyTargetS} min={0} max={10000} step={1}
              onChange={(v) => put({ weighted: { ...t.weighted, latencyTargetS: v } })} />
          </>
        )}
      </Group>
      <Group title="Policy (changing it starts a new network)">
        <Num integer label="width" value={t.policy.width} min={4} max={512} step={4}
          onChange={(v) => put({ policy: { ...t.policy, width: v } })} />
        <Num integer label="depth" value={t.policy.depth} min={1} max={8} step={1}
          onChange={(v) => put({ policy: { ...t.policy, depth: v } })} />
      </Group>
    </section>
  );
}
