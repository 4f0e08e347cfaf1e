// Natural-language and JSON renderings of tasks and tool calls, for display and for export:
// a tool call as an OpenAI function call, its result as text, and a whole task with its golden
// path as one JSONL line in chat-message form.

import { functionName, type Catalog } from './catalog';
import type { Task, TaskStep } from './tasks';

export interface FunctionCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A call of `toolId` on `step`, in OpenAI function-call form. */
export function renderCall(catalog: Catalog, toolId: string, step: TaskStep, callId: string): FunctionCall {
  const tool = catalog.tools.find((t) => t.id === toolId);
  const arg = tool?.argument.name ?? 'prompt';
  return { id: callId, type: 'function', function: { name: functionName(toolId), arguments: JSON.stringify({ [arg]: step.argument }) } };
}

/** What a call returns, in words: the answer it gave and its stated confidence. */
export function renderResult(step: TaskStep, correct: boolean, confidence: number): string {
  return `${correct ? step.answer : step.wrong} (confidence ${confidence.toFixed(2)})`;
}

/** The task and its golden path as chat messages (user question, tool calls, tool results). */
export function taskMessages(task: Task, catalog: Catalog): object[] {
  const messages: object[] = [{ role: 'user', content: task.question }];
  task.steps.forEach((step, i) => {
    const g = task.golden.path[i];
    if (!g || g.tool === null) {
      messages.push({ role: 'assistant', content: `(solves "${step.text}" itself) ${step.answer}` });
      return;
    }
    const call = renderCall(catalog, g.tool, step, `call_${i}`);
    messages.push({ role: 'assistant', content: step.text, tool_calls: [call] });
    messages.push({ role: 'tool', tool_call_id: call.id, content: step.answer });
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
    steps: task.steps,
    ...(task.store ? { store: task.store } : {}),
    golden: task.golden,
    messages: taskMessages(task, catalog),
  });
}

export function tasksToJsonl(tasks: readonly Task[], catalog: Catalog): string {
  return tasks.map((t) => taskToJsonl(t, catalog)).join('\n') + '\n';
}
