// `generate --catalog C --seed S --count N --out tasks.jsonl`: ToolScale-lite tasks as JSONL.

import { tasksToJsonl } from '../../core/sim/render';
import { checkKnown, stringOpt, type Args } from '../args';
import { checkOutputFile, writeFilesAtomically } from '../io';
import { WORLD_OPTIONS, worldFromArgs } from './world';

export function generateCommand(a: Args): void {
  checkKnown(a, [...WORLD_OPTIONS, 'out', 'json']);
  const out = stringOpt(a, 'out');
  checkOutputFile(out, '--out');
  const w = worldFromArgs(a, { seed: 1, count: 100, availability: 0.75 });
  writeFilesAtomically([{ path: out, data: tasksToJsonl(w.tasks, w.catalog) }]);
  const summary = { out, catalog: w.catalog.name, suite: w.suite, seed: w.seed, ...w.stats };
  if (a.flags.has('json')) process.stdout.write(JSON.stringify(summary) + '\n');
  else process.stderr.write(`wrote ${w.stats.kept} tasks to ${out} (generated ${w.stats.generated}; dropped ` +
    `${w.stats.droppedUnsolvable} unsolvable, ${w.stats.droppedNoTool} solvable without tools)\n`);
}
