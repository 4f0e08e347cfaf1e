import { describe, expect, it } from 'vitest';
import { BatchEnv } from '../src/core/sim/env';
import { CH_SUCCESS } from '../src/core/sim/episode';
import { DEFAULT_SIM } from '../src/core/sim/callModel';
import { presetCatalog } from '../src/core/sim/presets';
import { goldenStore, type Task } from '../src/core/sim/tasks';
import { toolIndex } from '../src/core/sim/catalog';
import { scriptedDraws } from './helpers';

const catalog = presetCatalog('toolorchestra');
const LOCAL = toolIndex(catalog, 'local-search');
const GPT5 = toolIndex(catalog, 'gpt-5');
const SUBMIT = catalog.tools.length;

function refundTask(): Task {
  const store = [
    { id: 'ord-1', fields: { customer: 'Ana', status: 'shipped', refund: 0 } },
    { id: 'ord-2', fields: { customer: 'Bruno', status: 'shipped', refund: 0 } },
  ];
  const t: Task = {
    id: 'agentic-1', key: 7, suite: 'toolscale', domain: 'agentic', question: 'cancel and refund ord-1', promptTokens: 900,
    steps: [
      { type: 'lookup', difficulty: 0, hint: 0, needsTool: false, text: 'read', argument: 'get_order', answer: 'amount 40', wrong: 'amount 55' },
      { type: 'act', difficulty: 0, hint: 0, needsTool: false, text: 'cancel', argument: 'update', answer: 'cancelled', wrong: 'returned', write: { record: 'ord-1', field: 'status', value: 'cancelled', wrong: 'returned' }, uses: [0] },
      { type: 'act', difficulty: 0, hint: 0, needsTool: false, text: 'refund', argument: 'refund', answer: '40', wrong: '55', write: { record: 'ord-1', field: 'refund', value: 40, wrong: 55 }, uses: [0] },
    ],
    available: catalog.tools.map((x) => x.id),
    store,
    golden: { path: [], successProbability: 1 },
  };
  t.golden.store = goldenStore(t);
  return t;
}

/** lookup with local search, both acts with gpt-5; `fail` lists "step/tool" calls that fail. */
function run(fail: string[]): BatchEnv {
  const table: Record<string, number> = {};
  for (const k of [`0/${LOCAL}`, `1/${GPT5}`, `2/${GPT5}`]) table[`${k}/0/${CH_SUCCESS}`] = fail.includes(k) ? 0.999999 : 0.000001;
  const env = new BatchEnv(catalog, DEFAULT_SIM, 1, scriptedDraws(table));
  env.reset([refundTask()], [0]);
  for (const a of [LOCAL, SUBMIT, GPT5, SUBMIT, GPT5, SUBMIT]) env.step([a]);
  return env;
}

describe('agentic tasks are judged by the final record store', () => {
  it('golden store = the initial store with every correct write', () => {
    expect(refundTask().golden.store?.[0]?.fields).toEqual({ customer: 'Ana', status: 'cancelled', refund: 40 });
    expect(refundTask().golden.store?.[1]?.fields).toEqual({ customer: 'Bruno', status: 'shipped', refund: 0 });
  });

  it('all steps right → the store matches → outcome 1', () => {
    const env = run([]);
    expect(env.answered[0]).toBe(1);
    expect(env.outcome[0]).toBe(1);
    expect(env.finalStore(0)).toEqual(refundTask().golden.store);
  });

  it('one wrong write fails the task even though every other step succeeded', () => {
    const env = run([`2/${GPT5}`]);
    expect(env.stepCorrect[0]).toBe(1);
    expect(env.stepCorrect[1]).toBe(1);
    expect(env.outcome[0]).toBe(0);
    expect(env.finalStore(0)?.[0]?.fields).toEqual({ customer: 'Ana', status: 'cancelled', refund: 55 });
  });

  it('a wrong lookup makes every write that uses it wrong', () => {
    const env = run([`0/${LOCAL}`]);
    expect(env.outcome[0]).toBe(0);
    expect(env.finalStore(0)?.[0]?.fields).toEqual({ customer: 'Ana', status: 'returned', refund: 55 });
  });
});
