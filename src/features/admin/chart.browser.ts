import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatNaira } from '../../lib/money.ts';

/**
 * The dashboard's chart, drawn by uPlot (about 20 KB gzip, loaded with a dynamic import by
 * RevenueChart.tsx, so only /admin's dashboard ever fetches it). Orders per day as bars on
 * the left scale, revenue per day as a line on the right. Colours come from the theme's
 * custom properties and the chart is drawn again when the theme changes; its height is
 * fixed and its width follows the box.
 */
export const CHART_HEIGHT = 260;
const HALF_DAY_SECONDS = 12 * 60 * 60;

export interface ChartDay {
  day: string;
  orders: number;
  revenue: number;
}

function themeColours() {
  const css = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: read('--text', '#111827'),
    muted: read('--muted', '#4b5563'),
    grid: read('--border', '#d9dee5'),
    // The accent (#f5a623) has 3:1 or more against the dark background only: on the light one the
    // bars take a deeper amber (#b45309, about 5:1 on white), as graphics need 3:1.
    orders: document.documentElement.classList.contains('dark') ? read('--accent', '#f5a623') : '#b45309',
    revenue: read('--brand', '#0a7a41'),
  };
}

const compactNaira = new Intl.NumberFormat('en-NG', {
  style: 'currency',
  currency: 'NGN',
  notation: 'compact',
  maximumFractionDigits: 1,
});

function options(width: number): uPlot.Options {
  const c = themeColours();
  const axis = { stroke: c.muted, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1 } };
  return {
    width,
    height: CHART_HEIGHT,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Africa/Lagos'),
    scales: {
      // Half a day either side: the first and last days' bars stand whole inside the chart.
      x: { time: true, range: (_u, min, max) => [min - HALF_DAY_SECONDS, max + HALF_DAY_SECONDS] },
      orders: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] },
      naira: { range: (_u, _min, max) => [0, Math.max(100_000, max * 1.15)] },
    },
    axes: [
      { ...axis },
      {
        ...axis,
        scale: 'orders',
        label: 'Orders',
        labelSize: 20,
        size: 44,
        values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? String(t) : '')),
      },
      {
        ...axis,
        scale: 'naira',
        side: 1,
        label: 'Revenue',
        labelSize: 20,
        size: 64,
        grid: { show: false },
        values: (_u, ticks) => ticks.map((t) => compactNaira.format(t / 100)),
      },
    ],
    series: [
      {},
      {
        label: 'Orders',
        scale: 'orders',
        stroke: c.orders,
        fill: c.orders,
        width: 1,
        paths: uPlot.paths.bars?.({ size: [0.6, 24] }),
        value: (_u, v) => (v == null ? '' : String(v)),
      },
      {
        label: 'Revenue',
        scale: 'naira',
        stroke: c.revenue,
        width: 2,
        points: { show: true, size: 4 },
        value: (_u, v) => (v == null ? '' : formatNaira(v)),
      },
    ],
  };
}

/** Draws the chart into `box` and keeps it sized and themed; answers the clean-up. */
export function mountChart(box: HTMLElement, daily: readonly ChartDay[]): () => void {
  const data: uPlot.AlignedData = [
    // Each day at its Lagos midnight, where the axis puts its date: the bar stands on its label.
    daily.map((d) => Date.parse(`${d.day}T00:00:00+01:00`) / 1000),
    daily.map((d) => d.orders),
    daily.map((d) => d.revenue),
  ];
  const width = () => Math.max(200, Math.floor(box.clientWidth));
  let plot = new uPlot(options(width()), data, box);

  const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: CHART_HEIGHT }));
  resize.observe(box);
  // The theme toggle flips `dark` on <html>: draw again with that theme's colours.
  const theme = new MutationObserver(() => {
    plot.destroy();
    plot = new uPlot(options(width()), data, box);
  });
  theme.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });

  return () => {
    resize.disconnect();
    theme.disconnect();
    plot.destroy();
  };
}
