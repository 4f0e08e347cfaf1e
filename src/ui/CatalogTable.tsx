import { expectedCallCost, expectedLatencyMs, formatCost, type Catalog } from '../core/sim/catalog';
import { STEP_TYPE_MEANING, STEP_TYPES } from '../core/sim/stepTypes';

/** The tool catalog: prices, latency, roles (what a model writes, what a basic tool runs), skills per step type, calibration. */
export function CatalogTable({ catalog }: { catalog: Catalog }) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label="The tool catalog (scrolls)">
      <table className="catalog">
        <caption>
          Catalog <code>{catalog.name}</code> — prices in {catalog.currency === 'USD' ? 'USD per million tokens'
            : 'cost units'}; expected call at 1 000 context tokens;
          a model’s skill is its IRT ability at answering a step of each type (— = it cannot); a basic tool’s, how well a query or program run on it finds
          what the step needs (“lift +b”: a find raises the answer’s logit on that step by b). “writes” lists the roles a model fills as a writer of
          search queries or programs. Orchestrator: <code>{catalog.orchestrator.id}</code>{catalog.orchestrator.writes
            ? ' (writes its own queries and programs)'
            : ' (hands every query and program to a model, as the paper’s harness does)'}.
        </caption>
        <thead>
          <tr>
            <th>tool</th><th>kind</th><th>writes / runs</th><th>$/M in</th><th>$/M out</th><th>per call</th><th>exp. call</th><th>exp. latency</th>
            {STEP_TYPES.map((s) => <th key={s} title={STEP_TYPE_MEANING[s]}>{s}</th>)}
            <th title="AUROC of its stated confidence: 0.5 = noise, 1 = exact">calibration (AUROC)</th>
          </tr>
        </thead>
        <tbody>
          {catalog.tools.map((t) => (
            <tr key={t.id} title={t.description}>
              <td><code>{t.id}</code></td>
              <td><span className={`kind ${t.kind}`}>{t.kind}</span></td>
              <td>{t.kind === 'basic' ? (t.runs ? `runs ${t.runs === 'query' ? 'queries' : 'programs'}` : '—')
                : Object.entries(t.writes ?? {}).map(([r, v]) => `${r} ${v}`).join(', ') || '—'}</td>
              <td className="num">{t.pricing.inputPerM}</td>
              <td className="num">{t.pricing.outputPerM}</td>
              <td className="num">{t.pricing.perCall || (t.pricing.perSecond ? `${t.pricing.perSecond}/s` : 0)}</td>
              <td className="num">{formatCost(catalog, expectedCallCost(t, 1000))}</td>
              <td className="num">{(expectedLatencyMs(t) / 1000).toFixed(1)} s</td>
              {STEP_TYPES.map((s) => (
                <td key={s} className="num skill">
                  {t.skill[s] === undefined ? '—' : t.skill[s]?.toFixed(1)}
                  {t.context?.[s] !== undefined && <span className="muted"
                    title="the logit lift a find gives the answer on such a step"> · lift +{t.context[s]}</span>}
                </td>
              ))}
              <td className="num">{t.calibration.toFixed(2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
