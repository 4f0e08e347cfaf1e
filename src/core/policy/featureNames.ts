// The names of the policy's inputs, in order: the table at the top of features.ts as data, for the
// input spec a policy file carries across the border (core/io/inputSpec.ts) and for anyone who builds
// the inputs outside the lab. A test checks the counts against STATE_DIM and TOOL_DIM.

import { DOMAINS, STEP_TYPES } from '../sim/stepTypes';

export const STATE_FEATURES: readonly string[] = [
  ...DOMAINS.map((d) => `domain is ${d} (one-hot)`),
  ...STEP_TYPES.map((t) => `steps of type ${t} in the current unit / 2`),
  'mean difficulty hint of the unit\'s steps / 2', 'max difficulty hint / 2', 'units left, the current one included / 3',
  'turns used / 12', 'turns left / 12', 'slack = (turns left − units left) / 12', 'evidence calls on the unit, min(n, 8) / 8',
  'finds believed on the unit (from the signals), min(n, 8) / 8', 'unit steps believed to need a tool with nothing found yet / 2', 'best signal on the unit (0 if none)',
  'last signal on the unit (0 if none)', 'ln(1 + cost so far / cost scale)', 'ln(1 + latency so far / latency scale)',
  'P_outcome', 'P_cost', 'P_latency', 'p̂ that the orchestrator answers the unit right now', 'best p̂ over the answer slots allowed now',
  'evidence believed gathered for the unit / 4', 'preference weight on tools, min(1, ΣP_tools / 3)',
];

export const SLOT_FEATURES: readonly string[] = [
  'role is search (one-hot)', 'role is code (one-hot)', 'role is answer (one-hot)', 'written by the orchestrator itself (0/1)',
  'p̂: evidence: a good query or program and a find; answer: the unit right now',
  'evidence: p̂ gain of the likeliest answerer if it finds; answer: 0', 'the lift a find adds to its target step / 4',
  'chance its target step needs a tool and has nothing found yet', 'the model\'s described skill in its role / 3',
  'the signal\'s calibration (evidence; 0 for an answer)', 'ln(expected cost of the call / cost scale), clamped to [−4, 4], / 3',
  'ln(expected latency / latency scale), clamped to [−4, 4], / 3', 'the user\'s preference for its model, P_model', 'the user\'s preference for its tool, P_tool',
  'calls of its model this episode, min(n, 4) / 4', 'calls of this slot on the unit, min(n, 3) / 3', 'ln(1 + $/M input of its model) / 3',
  'ln(1 + $/M output) / 3', 'ln(1 + 100 · fee per call of its tool) / 3', 'its tool reaches fresh facts (0 for an answer)',
  'its model is a generalist (1), a specialist (0), the orchestrator (0.5)',
];
