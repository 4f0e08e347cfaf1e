import { describe, expect, it } from 'vitest';
import { plotArea } from '../src/ui/charts/AxesFrame';

describe('plotArea (the plot inside a chart, left by the axes)', () => {
  it('leaves the y axis on the left and the x axis with its title underneath (worked by hand)', () => {
    // 12 px font: x = 4 (margin) + 40 (y axis); under the plot round(2.5·12 + 1.3·12) = round(45.6) = 46 px;
    // width 400 − 44 − 10 (right margin) = 346; height 250 − 6 (top margin) − 46 = 198.
    expect(plotArea(400, 250, 40, 12)).toEqual({ x: 44, y: 6, width: 346, height: 198 });
    // Classroom type (18 px): round(3.8 · 18) = round(68.4) = 68 px under the plot, so 250 − 6 − 68 = 176.
    expect(plotArea(400, 250, 40, 18)).toEqual({ x: 44, y: 6, width: 346, height: 176 });
  });
  it('is null while the chart is too small to hold a plot (before layout: 0 × 0)', () => {
    expect(plotArea(0, 0, 40, 12)).toBeNull();
    expect(plotArea(54, 300, 40, 12)).toBeNull(); // 54 − 44 − 10 = 0 px wide
    expect(plotArea(400, 52, 40, 12)).toBeNull(); // 52 − 6 − 46 = 0 px high
  });
});
