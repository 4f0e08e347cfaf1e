// The role slots of the paper's harness (`search`, `enhance_reasoning`, `answer`): the actions an
// episode offers, built from a catalog — search:<writer>@<tool>, code:<writer>@<tool> (a model or the
// driver, "self", writes what a tool runs) and answer:<model> (one committed call). Every model × tool
// pair a catalog allows is a slot, disabled ones included, so indices stay put when a tool is switched
// off (its slots are masked). The reward still counts calls per resource (M(τ)).

import type { Catalog, ToolSpec, WriterRole } from './catalog';

export type SlotRole = 'search' | 'code' | 'answer';

/** The episode's driver as a writer: its own turn writes the query or program. */
export const SELF = -1;

export interface Slot {
  id: string;
  role: SlotRole;
  /** Catalog index of the model that writes (search, code) or answers; SELF for the driver. */
  model: number;
  /** Catalog index of the basic tool that runs what was written; −1 for an answer. */
  tool: number;
}

/** The writer role a slot role needs (none for an answer). */
export function writerRoleOf(role: SlotRole): WriterRole | null {
  return role === 'search' ? 'query' : role === 'code' ? 'code' : null;
}

const isModel = (t: ToolSpec): boolean => t.kind !== 'basic';
const answers = (t: ToolSpec): boolean => isModel(t) && Object.keys(t.skill).length > 0;

/** The slots of a catalog, in a fixed order: per basic tool its writers (catalog models, then self), then the answerers. */
export function slotsOf(catalog: Catalog): Slot[] {
  const slots: Slot[] = [];
  catalog.tools.forEach((tool, r) => {
    if (tool.kind !== 'basic' || !tool.runs) return;
    const role: SlotRole = tool.runs === 'query' ? 'search' : 'code';
    catalog.tools.forEach((m, j) => {
      if (isModel(m) && m.writes?.[tool.runs as WriterRole] !== undefined) slots.push({ id: `${role}:${m.id}@${tool.id}`, role, model: j, tool: r });
    });
    slots.push({ id: `${role}:self@${tool.id}`, role, model: SELF, tool: r });
  });
  catalog.tools.forEach((m, j) => {
    if (answers(m)) slots.push({ id: `answer:${m.id}`, role: 'answer', model: j, tool: -1 });
  });
  return slots;
}

/** The slot's label in the lab's words, e.g. "search · gpt-5-mini → local-search", "answer · gpt-5". */
export function slotLabel(catalog: Catalog, s: Slot, driverId = 'self'): string {
  const model = s.model === SELF ? driverId : (catalog.tools[s.model]?.id ?? '?');
  if (s.role === 'answer') return `answer · ${model}`;
  return `${s.role} · ${model} → ${catalog.tools[s.tool]?.id ?? '?'}`;
}
