import type { ReactNode } from 'react';

/** A titled chart panel with a one-line explanation of what is plotted and its units. */
export function ChartCard({ title, note, children, testId, footer }: { title: string; note?: ReactNode;
  children: ReactNode; testId?: string; footer?: ReactNode }) {
  return (
    <figure className="chart-card" data-testid={testId} aria-label={title}>
      <figcaption>
        <strong>{title}</strong>
        {note && <span className="small muted"> {note}</span>}
      </figcaption>
      <div className="chart-body">{children}</div>
      {footer}
    </figure>
  );
}

/** Distinct colours for tools (by catalog position) and fixed colours for series. */
export const TOOL_COLOURS = ['#4f7cff', '#e8590c', '#2f9e44', '#c2255c', '#7048e8', '#1098ad', '#f59f00', '#5c940d',
  '#d6336c', '#495057', '#0ca678', '#ae3ec9'];
export const toolColour = (j: number): string => TOOL_COLOURS[j % TOOL_COLOURS.length] as string;
export const GRID = 'var(--line)';
export const TOOLTIP_STYLE = { background: 'var(--panel)', border: '1px solid var(--line)', color: 'var(--ink)' };
