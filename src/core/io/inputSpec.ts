// What a policy's weights mean, for a reader outside the lab: the inputs in order (state and slot
// features, named), the catalog's slots and the actions they become, the network as a formula, the
// weights' names and shapes, and the cost and latency scales the features are divided by. It travels
// beside the safetensors file (and public/forward.py, a plain-Python forward that reads both).

import { catalogScales, STATE_DIM, TOOL_DIM } from '../policy/features';
import { SLOT_FEATURES, STATE_FEATURES } from '../policy/featureNames';
import { weightShapes, type PolicyConfig } from '../policy/policyConfig';
import type { Catalog } from '../sim/catalog';
import { slotsOf } from '../sim/slots';

export const INPUT_SPEC_FORMAT = 'orchestra-lab-input-spec';

export function inputSpec(catalog: Catalog, policy: PolicyConfig) {
  const slots = slotsOf(catalog);
  const scales = catalogScales(catalog, slots);
  const name = (j: number) => (j < 0 ? null : catalog.tools[j]?.id ?? catalog.orchestrator.id);
  return {
    format: INPUT_SPEC_FORMAT,
    version: 1,
    catalog: catalog.name,
    state: { dim: STATE_DIM, features: STATE_FEATURES },
    slot: { dim: TOOL_DIM, features: SLOT_FEATURES },
    slots: slots.map((s) => ({ id: s.id, role: s.role, model: s.model >= 0 ? name(s.model) : catalog.orchestrator.id, tool: name(s.tool) })),
    actions: [...slots.map((s) => s.id), 'submit'],
    scales: { costScale: scales.cost, latencyScaleMs: scales.latencyMs, costScaleMeans: 'the mean expected call cost of the enabled tools at 1000 context tokens' },
    network: {
      width: policy.width, depth: policy.depth, hiddenActivation: 'relu',
      scorer: 'h = relu(state·scorer/l0/state + slot·scorer/l0/tool + scorer/l0/bias); h = relu(h·scorer/lk/kernel + scorer/lk/bias) for k = 1 … depth−1; score = h·scorer/out/kernel + scorer/out/bias',
      submit: 'g = relu(state·submit/l0/kernel + submit/l0/bias); g = relu(g·submit/lk/kernel + submit/lk/bias) for k = 1 … depth−1; score = g·submit/out/kernel + submit/out/bias',
      logits: 'logits = [score(slot 1), …, score(slot n), submit score] + mask, the mask 0 where the action is allowed and −1e9 where not',
      probabilities: 'softmax(logits)',
      shapes: 'a kernel is [inputs, outputs]: x·kernel multiplies a row vector x',
    },
    weights: weightShapes(policy),
  };
}
