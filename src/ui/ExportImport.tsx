import { useRef, useState } from 'react';
import { useLab } from '../store/labStore';
import { SERIES_CAP } from '../store/series';
import { useShallow } from 'zustand/react/shallow';
import { SHARE_FILE } from '../core/io/shareBundle';

/** Export the policy (the same two files the CLI reads and writes) and the run's metrics; import a policy, or a share file (settings and policy). */
export function ExportImport() {
  const s = useLab(useShallow((x) => ({ notify: x.notify, importWeights: x.importWeights,
    importShareFile: x.importShareFile, exportWeights: x.exportWeights, exportPortable: x.exportPortable, loadPretrained: x.loadPretrained,
    exportMetrics: x.exportMetrics, recorded: x.series.length, logged: x.history.points.length,
    iteration: x.iteration, origin: x.policyOrigin, imported: x.importedIterations })));
  const fromFile = s.origin === 'imported' || s.origin === 'pretrained';
  const input = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<string>('');
  const onFiles = async (files: FileList | null) => {
    const list = Array.from(files ?? []);
    const json = list.find((f) => f.name.endsWith('.json'));
    const bin = list.find((f) => f.name.endsWith('.bin'));
    setPicked(list.map((f) => f.name).join(', '));
    if (json && list.length === 1) {
      await s.importShareFile(json); // one JSON: a share file (settings and policy); anything else is refused with why
    } else if (!json || !bin) {
      s.notify('error', `Import needs both files: orchestrator.json and orchestrator.weights.bin (select them ` +
        `together), or one ${SHARE_FILE}. The current model keeps running.`, 'import');
      return;
    } else await s.importWeights(json, bin);
    if (input.current) input.current.value = '';
  };
  return (
    <div className="export-import">
      <section>
        <h3>Policy weights</h3>
        <p className="small muted">
          tfjs artifacts: <code>orchestrator.json</code> (weights manifest; catalog, feature spec and training config
          in its metadata) + <code>orchestrator.weights.bin</code>. Import also
          takes one <code>{SHARE_FILE}</code> (Share → Share with policy:
          settings and policy). <code>npm run cli -- eval --policy orchestrator.json</code> evaluates them in Node.
        </p>
        <button type="button" onClick={() => void s.exportWeights()}>Export weights</button>{' '}
        <button type="button" onClick={() => input.current?.click()}>Import weights</button>{' '}
        <button type="button" onClick={() => void s.loadPretrained()}>Load the pretrained policy</button>
        <input ref={input} type="file" multiple accept=".json,.bin" hidden data-testid="import-files" onChange={(e) => void onFiles(e.target.files)} />
        {picked && <p className="small muted">picked: {picked}</p>}
      </section>
      <section>
        <h3>For other tools</h3>
        <p className="small muted">
          The weights as <code>orchestrator.safetensors</code> (readable by the <code>safetensors</code> library in Python
          or Rust), <code>input-spec.json</code> (every input feature and weight named, the slots and the network as a
          formula) and <code>forward.py</code>, the forward pass in plain Python:{' '}
          <code>python3 forward.py orchestrator.safetensors input-spec.json decisions.json</code>. The CLI writes the
          same: <code>npm run cli -- export --policy orchestrator.json --out DIR</code>.
        </p>
        <button type="button" onClick={() => void s.exportPortable()}>Export for Python (safetensors)</button>
      </section>
      <section>
        <h3>Run metrics</h3>
        {fromFile && <p className="small muted" data-testid="imported-file-carries">
          This policy came from a file ({s.origin === 'pretrained' ? 'the shipped one' : 'imported'}){s.imported !== null
            ? `, trained for ${s.imported} iteration${s.imported === 1 ? '' : 's'} where it was made (its file says so)` : ''}. A policy file carries the weights,
          the catalog, the feature spec and the training settings, not the run's curves: those stay with the run that made it
          (a CLI run folder's <code>metrics.jsonl</code>, or that lab's Metrics export).
        </p>}
        <p className="small muted" data-testid="metrics-recorded">
          The export holds every iteration of this policy's run{fromFile ? ' in this lab, since it came in' : ''}: {s.logged}
          {' '}({s.logged === 0 ? 'none yet: Start or Step trains it' : s.recorded > 0 && s.recorded < s.logged
            ? `the charts draw ${s.recorded} of them, thinned past ${SERIES_CAP}` : 'the charts draw them all'}).
        </p>
        <button type="button" onClick={() => s.exportMetrics('csv')}>Metrics CSV</button>{' '}
        <button type="button" onClick={() => s.exportMetrics('json')}>Metrics JSON</button>
      </section>
    </div>
  );
}
