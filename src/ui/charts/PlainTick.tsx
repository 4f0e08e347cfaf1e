import type { ReactElement } from 'react';

interface TickProps {
  x?: number | string;
  y?: number | string;
  payload?: { value?: unknown };
  textAnchor?: 'start' | 'middle' | 'end' | 'inherit';
  verticalAnchor?: 'start' | 'middle' | 'end';
}

const DY = { start: '0.71em', middle: '0.32em', end: '0' } as const;

/**
 * Tick labels as plain SVG text. recharts' own <Text> measures each new label string in the
 * DOM (a forced layout), which on a live chart happens on every update.
 */
export function plainTick(format: (v: number) => string): (p: TickProps) => ReactElement {
  return function PlainTick({ x = 0, y = 0, payload, textAnchor = 'middle', verticalAnchor = 'middle' }: TickProps) {
    const v = payload?.value;
    return (
      <text className="tick-label" x={x} y={y} dy={DY[verticalAnchor]} textAnchor={textAnchor} fill="var(--muted)">
        {typeof v === 'number' ? format(v) : String(v ?? '')}
      </text>
    );
  };
}
