// Natural-language and JSON renderings of tasks and calls, for display and for export: a slot's call
// as an OpenAI function call in the paper's harness form (`search`, `enhance_reasoning`, `answer`, each
// naming the model that writes or answers), its result as text, and a whole task with its golden path
// as one JSONL line in chat-message form.

import { type Catalog } from './catalog';
import { slotsOf, SELF } from './slots';
import type { Task, TaskStep } from './tasks';

export interface FunctionCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

const FUNCTION_OF = { search: 'search', code: 'enhance_reasoning', answer: 'answer' } as const;

/** A call of slot `slotId` on `step` (a search's query, a program's task, or the question for an answer), in OpenAI function-call form. */
export function renderCall(catalog: Catalog, slotId: string, step: TaskStep, callId: string, question = step.text): FunctionCall {
  const slot = slotsOf(catalog).find((s) => s.id === slotId);
  if (!slot) return { id: callId, type: 'function', function: { name: 'answer', arguments: JSON.stringify({ model: catalog.orchestrator.id, question }) } };
  const model = slot.model === SELF ? catalog.orchestrator.id : catalog.tools[slot.model]?.id;
  const tool = catalog.tools[slot.tool];
  const args = slot.role === 'answer' ? { model, question } : { model, [tool?.argument.name ?? 'query']: step.argument, ...(tool ? { tool: tool.id } : {}) };
  return { id: callId, type: 'function', function: { name: FUNCTION_OF[slot.role], arguments: JSON.stringify(args) } };
}

/**
 * The harness's three functions as OpenAI function-calling tool definitions, each with the models the
 * catalog lets fill it (the paper's evaluation harness: `search`, `enhance_reasoning`, `answer`) and, for
 * the first two, the tools that run what is written.
 */
export function harnessSchemas(catalog: Catalog): object[] {
  // The orchestrator's view: its own writing only where it writes (the paper's orchestrator hands every query to a model).
  const slots = slotsOf(catalog).filter((s) => s.model !== SELF || catalog.orchestrator.writes?.[s.role === 'search' ? 'query' : 'code'] !== undefined);
  const modelsOf = (role: string) => [...new Set(slots.filter((s) => s.role === role).map((s) => (s.model === SELF
    ? catalog.orchestrator.id : catalog.tools[s.model]?.id ?? '')))];
  const toolsOf = (role: string) => [...new Set(slots.filter((s) => s.role === role).map((s) => catalog.tools[s.tool]?.id ?? ''))];
  const fn = (name: string, description: string, properties: Record<string, object>,
    required: string[]) => ({ type: 'function',
    function: { name, description, parameters: { type: 'object', properties, required } } });
  const describe = (ids: string[]) => ids.map((id) => `${id}: ` +
    `${catalog.tools.find((t) => t.id === id)?.description ?? catalog.orchestrator.description}`).join(' | ');
  const out: object[] = [];
  if (modelsOf('search').length) out.push(fn('search',
    `A model writes a query and a search tool runs it; the documents join the context. Models — ` +
      `${describe(modelsOf('search'))}`,
    { model: { type: 'string', enum: modelsOf('search') }, tool: { type: 'string', enum: toolsOf('search') },
    query: { type: 'string', description: 'What to search for.' } }, ['model', 'tool', 'query']));
  if (modelsOf('code').length) out.push(fn('enhance_reasoning',
    `A model writes a program and the sandbox runs it; its output joins the context. Models — ` +
      `${describe(modelsOf('code'))}`,
    { model: { type: 'string', enum: modelsOf('code') }, tool: { type: 'string', enum: toolsOf('code') },
    code: { type: 'string', description: 'What the program must compute.' } }, ['model', 'tool', 'code']));
  if (modelsOf('answer').length) out.push(fn('answer',
    `One committed call: the model answers with everything gathered in its context. Models — ` +
      `${describe(modelsOf('answer'))}`,
    { model: { type: 'string', enum: modelsOf('answer') }, question: { type: 'string' } }, ['model', 'question']));
  return out;
}

/** What an evidence call returns, in words: what it found for the step, and the signal it showed. */
export function renderResult(step: TaskStep, found: boolean, signal: number): string {
  return `${found ? step.answer : `(nothing that settles “${step.text}”)`} (signal ${signal.toFixed(2)})`;
}

/** The task and its golden path as chat messages (user question, the calls and their results, the final answer). */
export function taskMessages(task: Task, catalog: Catalog): object[] {
  const messages: object[] = [{ role: 'user', content: task.question }];
  task.golden.path.forEach((g, i) => {
    const step = task.steps[g.step] as TaskStep;
    if (g.slot === 'submit') {
      messages.push({ role: 'assistant', content: `(answers itself) ${step.answer}` });
      return;
    }
    const call = renderCall(catalog, g.slot, step, `call_${i}`, task.commits === 'task' ? task.question : step.text);
    messages.push({ role: 'assistant', content: step.text, tool_calls: [call] });
    messages.push({ role: 'tool', tool_call_id: call.id,
      content: g.slot.startsWith('answer:') ? (task.commits === 'task' ? (task.steps[task.steps.length - 1]?.answer ?? '') : step.answer) : step.answer });
  });
  messages.push({ role: 'assistant', content: `Final answer: ${task.steps[task.steps.length - 1]?.answer ?? ''}` });
  return messages;
}

/** One JSONL line per task; key order is fixed, so the same tasks give byte-identical output. */
export function taskToJsonl(task: Task, catalog: Catalog): string {
  return JSON.stringify({
    id: task.id,
    domain: task.domain,
    question: task.question,
    promptTokens: task.promptTokens,
    available: task.available,
    commits: task.commits,
    ...(task.priceScale ? { priceScale: task.priceScale } : {}),
    ...(task.maxTurns ? { maxTurns: task.maxTurns } : {}),
    steps: task.steps,
    ...(task.store ? { store: task.store } : {}),
    golden: task.golden,
    messages: taskMessages(task, catalog),
  });
}

export function tasksToJsonl(tasks: readonly Task[], catalog: Catalog): string {
  return tasks.map((t) => taskToJsonl(t, catalog)).join('\n') + '\n';
}
