// `export --policy DIR/orchestrator.json --out DIR2`: a trained policy for other tools — its weights
// as orchestrator.safetensors, what they mean as input-spec.json (core/io/portable.ts) and forward.py,
// the forward pass in plain Python that reads both (public/forward.py, the file the page serves). It
// refuses a DIR2 that already holds any of them.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportArtifact } from '../../core/io/artifact';
import { FORWARD_PY, INPUT_SPEC_FILE, portableFiles, SAFETENSORS_FILE } from '../../core/io/portable';
import { checkKnown, CliError, stringOpt, type Args } from '../args';
import { checkOutputDir, writeFilesAtomically } from '../io';
import { loadPolicyFile } from '../policyFile';
import { initNodeBackend } from '../tfBackend';

const FORWARD_SOURCE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'public', FORWARD_PY);

export async function exportCommand(a: Args): Promise<void> {
  checkKnown(a, ['policy', 'out', 'json']);
  const out = stringOpt(a, 'out');
  checkOutputDir(out, '--out');
  const files = [SAFETENSORS_FILE, INPUT_SPEC_FILE, FORWARD_PY];
  const clash = files.filter((f) => existsSync(join(out, f)));
  if (clash.length) throw new CliError(`--out ${out} already holds ${clash.join(', ')}: give another --out, or move them first; nothing was written`);
  await initNodeBackend('cpu');
  const { net, catalog } = loadPolicyFile(stringOpt(a, 'policy'));
  const { json, weights } = await exportArtifact(net, catalog);
  net.dispose();
  const { safetensors, spec } = portableFiles(json, weights);
  writeFilesAtomically([
    { path: join(out, SAFETENSORS_FILE), data: safetensors },
    { path: join(out, INPUT_SPEC_FILE), data: `${JSON.stringify(spec, null, 1)}\n` },
    { path: join(out, FORWARD_PY), data: readFileSync(FORWARD_SOURCE, 'utf8') },
  ]);
  const said = { files: files.map((f) => join(out, f)), actions: spec.actions.length, weights: spec.weights.length };
  process.stdout.write(a.flags.has('json') ? `${JSON.stringify(said)}\n`
    : `wrote ${said.files.join(', ')}: ${said.weights} weights for ${said.actions} actions; python3 ${join(out, FORWARD_PY)} ` +
      `${join(out, SAFETENSORS_FILE)} ${join(out, INPUT_SPEC_FILE)} decisions.json scores decisions\n`);
}
