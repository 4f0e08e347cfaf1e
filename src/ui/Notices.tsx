import { useLab } from '../store/labStore';

/** Messages for the user: what was wrong with an input, a divergence, what was loaded; read out by screen readers as they come. */
export function Notices() {
  const notices = useLab((s) => s.notices);
  const dismiss = useLab((s) => s.dismiss);
  // Always there, empty or not: a live region is announced only when content is added to one already on the page.
  return (
    <div className="notices" aria-live="polite" aria-relevant="additions text">
      {notices.map((n) => (
        <div key={n.id} role={n.kind === 'error' ? 'alert' : 'note'} className={`notice ${n.kind}`}>
          <span>{n.text}</span>
          {n.action && <button type="button" className="notice-action" onClick={() => { dismiss(n.id); n.action?.run(); }}>{n.action.label}</button>}
          <button type="button" aria-label="Dismiss" onClick={() => dismiss(n.id)}>×</button>
        </div>
      ))}
    </div>
  );
}
