import { HIDEABLE, useHidden, useView } from '../../store/viewStore';

/** The top bar's view controls: Settings (the drawer), the theme, and classroom mode with the controls it hides. */
export function ViewControls() {
  const v = useView();
  const settingsHidden = useHidden('settings');
  return (
    <div className="view-controls">
      {!settingsHidden && <button type="button" onClick={() => v.setDrawer(!v.drawer)} aria-expanded={v.drawer}>Settings</button>}
      <button type="button" onClick={() => v.setTheme(v.theme === 'dark' ? 'light' : 'dark')} aria-label={v.theme === 'dark'
        ? 'Light theme' : 'Dark theme'} title="Switch between the light and the dark theme">
        {v.theme === 'dark' ? '☀ Light' : '☾ Dark'}
      </button>
      <label className="classroom-toggle" title="Large type for a projector, chosen controls hidden; kept in the link (?classroom=1)">
        <input type="checkbox" checked={v.classroom} onChange={(e) => v.setClassroom(e.target.checked)} /> Classroom
      </label>
      {v.classroom && (
        <details className="hide-menu">
          <summary>Hide…</summary>
          <fieldset>
            <legend className="small muted">Hidden in classroom mode (kept in the link)</legend>
            {HIDEABLE.map((h) => (
              <label key={h.id}><input type="checkbox" checked={v.hide.includes(h.id)}
                onChange={(e) => v.setHidden(h.id, e.target.checked)} /> {h.label}</label>
            ))}
          </fieldset>
        </details>
      )}
    </div>
  );
}
