// The policy file slice, the policy as files: export (orchestrator.json + its weights), import
// (validated in the worker first; a refused import changes nothing and says why), and the shipped
// pretrained policy.

import { errorMessage } from '../core/errorMessage';
import { WorkerStoppedError } from '../worker/client';
import type { LabEnv, LabSlice, PolicyFileSlice } from './labState';
import { replaceCurves } from './runSlice';
import { appendBounded } from './series';
import { saveFile } from './saveFile';
import { adoptShape } from './settingsSlice';
import { pairMismatch } from '../core/io/artifactCheck';
import { SHIPPED_RECIPE } from '../core/grpo/recipe';
import { importedText, keptText } from './workerText';

type ArtifactNames = { weightsManifest?: { paths?: unknown[] }[] };

const capitalised = (x: string): string => x.charAt(0).toUpperCase() + x.slice(1);

export const createPolicyFileSlice = (env: LabEnv): LabSlice<PolicyFileSlice> => (set, get) => ({
  async exportWeights() {
    const save = (json: object, weights: ArrayBuffer) => {
      saveFile('orchestrator.json', JSON.stringify(json), 'application/json');
      saveFile('orchestrator.weights.bin', new Uint8Array(weights), 'application/octet-stream');
    };
    try {
      const r = await env.worker().request({ type: 'export' });
      if (r.type !== 'exported') return;
      save(r.json, r.weights);
      set({ savedPoint: get().series.at(-1) ?? null });
    } catch (e) {
      // No worker to answer (it stopped, and was not started again): the page's own copy is what it trained.
      const copy = e instanceof WorkerStoppedError ? env.lastCopy() : null;
      if (!copy) return env.fail(e);
      save(copy.json, copy.weights);
      get().notify('warn', `The training worker did not answer, so the page's own copy of the policy was exported: `
        + `iteration ${copy.iteration}.`, 'worker');
    }
  },
  async exportPortable() {
    try {
      const r = await env.worker().request({ type: 'export' });
      if (r.type !== 'exported') return;
      // Fetched when first used: the input spec pulls in the features' code, which the page does not otherwise load.
      const { FORWARD_PY, INPUT_SPEC_FILE, portableFiles, SAFETENSORS_FILE } = await import('../core/io/portable');
      const { safetensors, spec } = portableFiles(r.json as Parameters<typeof import('../core/io/portable').portableFiles>[0], new Uint8Array(r.weights));
      const forward = await fetch(`./${FORWARD_PY}`);
      if (!forward.ok) throw new Error(`HTTP ${forward.status} for ${FORWARD_PY}`);
      saveFile(SAFETENSORS_FILE, safetensors, 'application/octet-stream');
      saveFile(INPUT_SPEC_FILE, `${JSON.stringify(spec, null, 1)}\n`, 'application/json');
      saveFile(FORWARD_PY, await forward.text(), 'text/x-python');
    } catch (e) {
      get().notify('error', `The export for other tools failed: ${errorMessage(e)}. The policy is unchanged.`, 'policy');
    }
  },
  async importWeights(jsonFile, weightsFile, options = {}) {
    const { quiet = false, replacedBy, resumeAt, curves, onRefused } = options;
    /** `damaged`: the files themselves were refused (not a worker that stopped or did not answer). */
    const refuse = (why: string, damaged = true) => {
      if (onRefused) onRefused(why, damaged);
      else get().notify('error', `Import refused: ${why}. The current model keeps running.`, 'import');
      return false;
    };
    let json: unknown;
    try {
      json = JSON.parse(await jsonFile.text());
    } catch (e) {
      return refuse(`${'name' in jsonFile && jsonFile.name ? `"${jsonFile.name}"` : 'the policy manifest'} is not valid `
        + `JSON (${errorMessage(e)})`);
    }
    // Two files of different runs: said as such, before their bytes are blamed on the weights file's name.
    const named = (json as ArtifactNames | null)?.weightsManifest?.[0]?.paths?.[0];
    const notPair = 'name' in weightsFile ? pairMismatch(named, weightsFile.name) : null;
    if (notPair) return refuse(notPair);
    const weights = await weightsFile.arrayBuffer();
    // Training pauses: the imported policy starts at iteration 0, with charts of its own. A refused
    // import changes nothing, so training then goes on.
    const wasRunning = get().running;
    if (wasRunning) get().pause();
    let r;
    try {
      r = await env.worker().request({ type: 'import', json, weights, ...(replacedBy ? { replacedBy } : {}),
        ...(resumeAt ? { resumeAt } : {}) }, [weights]);
    } catch (e) {
      if (wasRunning) get().start();
      return refuse(errorMessage(e), !(e instanceof WorkerStoppedError));
    }
    if (r.type !== 'imported') return refuse(`the worker answered "${r.type}" instead of importing it`, false);
    // The import has happened: whatever follows is reported as itself, never as a refused import.
    replaceCurves(env.runs, set, get, r.kept);
    if (curves?.length) {
      // Its own curves come with it, in the same update (no save can see the policy without them).
      set((s) => {
        s.history.append(curves);
        return { series: appendBounded([], curves), iteration: resumeAt ?? 0 };
      });
    } else if (resumeAt) set({ iteration: resumeAt });
    set({ bestIteration: r.bestIteration, undoLabel: r.undo });
    set((s) => ({ train: { ...s.train, policy: { ...s.train.policy, width: r.width, depth: r.depth } }, paper: null }));
    set(adoptShape);
    env.syncUrl();
    get().dropPhases();
    set({ policyOrigin: 'imported', importedIterations: r.recordedIterations }); // loadPretrained says 'pretrained' after this
    const keptNote = r.kept && r.undo ? `${capitalised(keptText(r.undo))} is kept — Undo brings it back.` : '';
    if (!quiet) get().notify('info', `Imported ${importedText(r)}.${keptNote ? ` ${keptNote}` : ''}`, 'policy');
    else if (keptNote) get().notify('info', keptNote, 'policy');
    await get().evaluate(true).catch(env.fail);
    return true;
  },
  async loadPretrained() {
    try {
      const j = await fetch('./pretrained/orchestrator.json');
      if (!j.ok) throw new Error(`HTTP ${j.status} for orchestrator.json`);
      const manifest = await j.blob();
      // The weights file is the one the manifest names (the CLI names it after its content).
      const named = (JSON.parse(await manifest.text()) as { weightsManifest?: { paths?: string[] }[] }).weightsManifest;
      const name = named?.[0]?.paths?.[0] ?? 'orchestrator.weights.bin';
      const w = await fetch(`./pretrained/${encodeURIComponent(name)}`);
      if (!w.ok) throw new Error(`HTTP ${w.status} for ${name}`);
      const ok = await get().importWeights(manifest, await w.blob(), { quiet: true, replacedBy: 'shippedPolicy' });
      if (ok) set({ policyOrigin: 'pretrained' });
      if (ok) get().notify('info', `Loaded the shipped pretrained policy (trained in Node with random preferences ` +
        `and the ${SHIPPED_RECIPE.reward} reward), so the sliders mean something before any training.`, 'policy');
      return ok;
    } catch (e) {
      get().notify('warn', `The shipped pretrained policy could not be loaded (${errorMessage(e)}); starting `
        + 'from a random policy.', 'policy');
      return false;
    }
  },
});
