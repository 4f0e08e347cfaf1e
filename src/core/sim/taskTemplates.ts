// ToolScale-lite task templates, one family per domain: each draws entities and numbers from a
// seeded generator and returns the question, its ordered steps (type, what the step asks, the
// argument a tool call would carry, the right answer and a plausible wrong one) and, for
// agentic tasks, the record store and the writes. Difficulties are drawn by the generator.

import type { Domain, StepType } from './stepTypes';
import type { SeqRng } from './rng';
import type { StoreRecord, StoreWrite } from './recordStore';

export interface StepDraft {
  type: StepType;
  text: string;
  argument: string;
  answer: string;
  wrong: string;
  /** Agentic `act` steps: the write, and the lookup steps whose result it uses. */
  write?: StoreWrite;
  uses?: number[];
}

export interface TaskDraft {
  question: string;
  steps: StepDraft[];
  store?: StoreRecord[];
}

const PEOPLE = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Emmy Noether', 'Srinivasa Ramanujan', 'Marie Curie', 'Kurt Gödel', 'Rosalind Franklin'];
const CITIES = ['Lisbon', 'Osaka', 'Nairobi', 'Montréal', 'Tallinn', 'Cusco', 'Hanoi', 'Bergen'];
const TICKERS = ['NVDA', 'ACME', 'GLBX', 'INIT', 'TYRL', 'WAVE'];
const TOPICS = ['quantum field theory', 'algebraic topology', 'organic synthesis', 'population genetics', 'plasma physics', 'number theory'];
const CUSTOMERS = ['Ana', 'Bruno', 'Chen', 'Dara', 'Emeka', 'Farah', 'Goran'];

function wrongNumber(rng: SeqRng, x: number): string {
  const delta = 1 + rng.int(Math.max(2, Math.round(Math.abs(x) * 0.1)));
  return String(x + (rng.next() < 0.5 ? -delta : delta));
}

function math(rng: SeqRng): TaskDraft {
  const a = 2 + rng.int(30), d = 1 + rng.int(9), n = 5 + rng.int(40);
  const sum = (n * (2 * a + (n - 1) * d)) / 2;
  const steps: StepDraft[] = [
    { type: 'reason', text: 'Set up the closed form of the arithmetic series.',
      argument: `Sum of ${n} terms starting at ${a}, step ${d}: give the formula.`,
      answer: `S = ${n}/2·(2·${a} + ${n - 1}·${d})`, wrong: `S = ${n}·(${a} + ${n}·${d})` },
    { type: 'compute', text: 'Evaluate the formula.', argument: `${n}/2*(2*${a}+${n - 1}*${d})`, answer: String(sum), wrong: wrongNumber(rng, sum) },
  ];
  if (rng.next() < 0.4) {
    const m = 2 + rng.int(7);
    steps.push({ type: 'reason', text: `Check the remainder modulo ${m} and state the final answer.`,
      argument: `What is ${sum} mod ${m}, and is the answer consistent?`, answer: String(sum % m),
      wrong: String((sum + 1) % m) });
  }
  return { question: `What is the sum of the first ${n} terms of the arithmetic sequence that starts at ${a} with common difference ${d}?`, steps };
}

function code(rng: SeqRng): TaskDraft {
  const n = 10 + rng.int(20);
  const fib = (k: number): number => { let x = 0, y = 1; for (let i = 0; i < k; i++) [x, y] = [y, x + y]; return x; };
  const steps: StepDraft[] = [
    { type: 'code', text: 'Write an iterative Fibonacci function that passes the tests.',
      argument: 'def fib(n): ... # iterative, fib(0)=0, fib(1)=1',
      answer: 'def fib(n):\n  a, b = 0, 1\n  for _ in range(n): a, b = b, a + b\n  return a',
      wrong: 'def fib(n):\n  return fib(n-1) + fib(n-2)' },
    { type: 'compute', text: `Run it on n = ${n}.`, argument: `print(fib(${n}))`, answer: String(fib(n)), wrong: wrongNumber(rng, fib(n)) },
  ];
  if (rng.next() < 0.5) steps.unshift({ type: 'reason', text: 'Plan the algorithm and its edge cases.',
    argument: 'How should fib handle n = 0 and n = 1, and avoid exponential time?',
    answer: 'iterate with two accumulators; fib(0)=0, fib(1)=1', wrong: 'recurse naively' });
  return { question: `Write a Python function fib(n) and report fib(${n}).`, steps };
}

function factual(rng: SeqRng): TaskDraft {
  const t = rng.pick(TICKERS), day = 1 + rng.int(28);
  const price = 50 + rng.int(400) + rng.int(100) / 100;
  const steps: StepDraft[] = [
    { type: 'retrieve', text: `Find ${t}'s closing price on 2026-11-${String(day).padStart(2, '0')}.`,
      argument: `${t} closing price 2026-11-${String(day).padStart(2, '0')}`, answer: `$${price.toFixed(2)}`,
      wrong: `$${(price * 1.07).toFixed(2)}` },
  ];
  if (rng.next() < 0.6) {
    const before = price * (0.8 + rng.next() * 0.4);
    steps.push({ type: 'retrieve', text: `Find ${t}'s closing price one year earlier.`,
      argument: `${t} closing price 2025-11-${String(day).padStart(2, '0')}`, answer: `$${before.toFixed(2)}`,
      wrong: `$${(before * 0.93).toFixed(2)}` });
    const pct = ((price - before) / before) * 100;
    steps.push({ type: 'compute', text: 'Compute the percentage change.',
      argument: `(${price.toFixed(2)} - ${before.toFixed(2)}) / ${before.toFixed(2)} * 100`,
      answer: `${pct.toFixed(1)}%`, wrong: `${(pct + 2.5).toFixed(1)}%` });
  }
  return { question: steps.length > 1 ? `By what percentage did ${t}'s closing price change over the year to ` +
    `2026-11-${String(day).padStart(2, '0')}?` : `What was ${t}'s closing price on ` +
    `2026-11-${String(day).padStart(2, '0')}?`, steps };
}

function multihop(rng: SeqRng): TaskDraft {
  const p = rng.pick(PEOPLE), c = rng.pick(CITIES), year = 1990 + rng.int(35);
  const steps: StepDraft[] = [
    { type: 'retrieve', text: `Find the city of the museum that holds ${p}'s notebooks.`,
      argument: `museum holding ${p} notebooks`, answer: c, wrong: rng.pick(CITIES.filter((x) => x !== c)) },
    { type: 'retrieve', text: `Find the year that city's museum opened.`, argument: `${c} museum opening year`,
      answer: String(year), wrong: String(year + 1 + rng.int(5)) },
  ];
  if (rng.next() < 0.5) steps.push({ type: 'lookup', text: 'Look up the exhibition catalogue entry in the local index.',
    argument: `${p} exhibition ${c}`, answer: `catalogue #${100 + rng.int(900)}`, wrong: 'no entry' });
  steps.push({ type: 'reason', text: 'Combine the facts into the answer.',
    argument: `Given the city ${c} and the year ${year}, how many years before ${p}'s bicentenary did it open?`,
    answer: 'the combined answer', wrong: 'a confused combination' });
  return { question: `How many years before ${p}'s bicentenary did the museum that holds their notebooks open?`, steps };
}

function science(rng: SeqRng): TaskDraft {
  const topic = rng.pick(TOPICS);
  const k = 2 + rng.int(6);
  const steps: StepDraft[] = [
    { type: 'reason', text: `Derive the governing relation (${topic}).`,
      argument: `Derive the relation for the ${topic} problem with k = ${k}.`, answer: `relation R_${k}`,
      wrong: `relation R_${k + 1}` },
    { type: 'reason', text: 'Identify the limiting case that fixes the constant.',
      argument: 'Which limit fixes the constant, and what is it?', answer: `C = ${k}/${k + 1}`,
      wrong: `C = ${k + 1}/${k}` },
  ];
  if (rng.next() < 0.6) steps.splice(1, 0, { type: 'compute', text: 'Evaluate the closed form numerically.',
    argument: `evaluate R_${k} at x = ${(0.1 * (1 + rng.int(9))).toFixed(1)}`, answer: (k * 0.37).toFixed(4),
    wrong: (k * 0.41).toFixed(4) });
  return { question: `An expert-level ${topic} question (HLE-like): find the constant C for k = ${k}.`, steps };
}

function agentic(rng: SeqRng): TaskDraft {
  const store: StoreRecord[] = [];
  const n = 3 + rng.int(3);
  for (let i = 0; i < n; i++) {
    store.push({ id: `ord-${1000 + rng.int(9000)}-${i}`, fields: { customer: rng.pick(CUSTOMERS), status: 'shipped',
      amount: 10 + rng.int(190), refund: 0, address: rng.pick(CITIES) } });
  }
  const target = rng.pick(store);
  const amount = target.fields.amount as number;
  const customer = target.fields.customer as string;
  if (rng.next() < 0.5) {
    return {
      question: `${customer}: "Please cancel my order ${target.id} and refund it in full."`,
      store,
      steps: [
        { type: 'lookup', text: `Read order ${target.id}.`, argument: `get_order("${target.id}")`, answer: `amount ${amount}`, wrong: `amount ${amount + 15}` },
        { type: 'act', text: 'Set the order status to cancelled.',
          argument: `update_order("${target.id}", status="cancelled")`, answer: 'status = cancelled',
          wrong: 'status = returned',
          write: { record: target.id, field: 'status', value: 'cancelled', wrong: 'returned' }, uses: [0] },
        { type: 'act', text: 'Issue the refund for the full amount.', argument: `refund("${target.id}", amount)`,
          answer: `refund = ${amount}`, wrong: `refund = ${amount + 15}`,
          write: { record: target.id, field: 'refund', value: amount, wrong: amount + 15 }, uses: [0] },
      ],
    };
  }
  const city = rng.pick(CITIES.filter((c) => c !== target.fields.address));
  return {
    question: `${customer}: "I moved to ${city}; please update the delivery address of my order ${target.id}."`,
    store,
    steps: [
      { type: 'lookup', text: `Find ${customer}'s order ${target.id} and check it can still be changed.`,
        argument: `get_order("${target.id}")`, answer: 'status shipped, address editable', wrong: 'order not found' },
      { type: 'act', text: `Change the address to ${city}.`,
        argument: `update_order("${target.id}", address="${city}")`, answer: `address = ${city}`,
        wrong: `address = ${target.fields.address as string}-${city}`, write: { record: target.id, field: 'address',
        value: city, wrong: `${target.fields.address as string}-${city}` }, uses: [0] },
    ],
  };
}

export const TEMPLATES: Readonly<Record<Domain, (rng: SeqRng) => TaskDraft>> = { math, code, factual, multihop, science, agentic };

/** Mean and spread of step difficulty per (domain, step type); HLE-like reasoning is hardest. */
export const DIFFICULTY: Readonly<Record<Domain, Partial<Record<StepType, [number, number]>>>> = {
  math: { reason: [0.9, 0.8], compute: [1.0, 1.0] },
  code: { reason: [0.6, 0.7], code: [1.0, 0.9], compute: [0.5, 0.8] },
  factual: { retrieve: [0.8, 0.8], compute: [0.5, 0.8] },
  multihop: { retrieve: [1.0, 0.8], lookup: [0.8, 0.7], reason: [1.2, 0.7] },
  science: { reason: [2.0, 0.6], compute: [1.5, 0.8] },
  agentic: { lookup: [0.8, 0.8], act: [0.9, 0.8] },
};

/**
 * Chance that a step of a type needs a tool, per domain: a fresh fact that is in no model's
 * weights (stock closes of 2026 always; encyclopaedic facts rarely), exact arithmetic on large
 * numbers (Fibonacci values, long series), a record that only the store holds. A model then has
 * almost no chance until a tool's result is in its context (SimConfig.needsToolPenalty).
 */
export const NEEDS_TOOL: Readonly<Record<Domain, Partial<Record<StepType, number>>>> = {
  math: { compute: 0.5 },
  code: { compute: 0.7 },
  factual: { retrieve: 1, compute: 0.3 },
  multihop: { retrieve: 0.25, lookup: 1 },
  science: { compute: 0.4 },
  agentic: { lookup: 1 },
};

/** Prompt length in tokens per domain (the context at turn 0). */
export const PROMPT_TOKENS: Readonly<Record<Domain, number>> = { math: 300, code: 500, factual: 200, multihop: 400, science: 800, agentic: 900 };
