import { useEffect, useRef, useState } from 'react';
import { formatNaira } from '../../lib/money.ts';
import type { Dashboard } from './admin-api.ts';
import { TableBox } from './ListControls.tsx';

const dayFormat = new Intl.DateTimeFormat('en-NG', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const shortDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

/**
 * Orders and revenue per day over the last 30 days. The chart (uPlot) is fetched with a
 * dynamic import when this mounts; its box has a fixed height from the first paint, so
 * nothing moves when it arrives. The figures are also in the text: a summary anyone can
 * read and a table for screen readers (the drawing itself is hidden from them).
 */
export function RevenueChart({ daily }: { daily: Dashboard['daily'] }) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const totals = daily.reduce((sum, d) => ({ orders: sum.orders + d.orders, revenue: sum.revenue + d.revenue }), {
    orders: 0,
    revenue: 0,
  });

  useEffect(() => {
    let cleanup: (() => void) | undefined;
    let cancelled = false;
    import('./chart.browser.ts').then(
      ({ mountChart }) => {
        if (!cancelled && box.current) cleanup = mountChart(box.current, daily);
      },
      () => !cancelled && setFailed(true),
    );
    return () => {
      cancelled = true;
      cleanup?.();
    };
  }, [daily]);

  const first = daily[0];
  const last = daily.at(-1);
  return (
    <section className="card admin-chart" aria-labelledby="chart-title">
      <h3 id="chart-title">Orders and revenue, last 30 days</h3>
      <p id="chart-summary">
        {first && last ? `${shortDay(first.day)} – ${shortDay(last.day)}: ` : ''}
        <strong>
          {totals.orders} {totals.orders === 1 ? 'order' : 'orders'}
        </strong>{' '}
        placed, <strong>{formatNaira(totals.revenue)}</strong> revenue from the paid ones.
      </p>
      <ul className="admin-chart__keys" aria-hidden="true">
        <li>
          <span className="admin-chart__key admin-chart__key--orders" /> Orders per day (bars, left scale)
        </li>
        <li>
          <span className="admin-chart__key admin-chart__key--revenue" /> Revenue per day (line, right scale)
        </li>
      </ul>
      <div className="admin-chart__plot" ref={box} aria-hidden="true">
        {failed && <p className="muted">The chart could not load; the figures are in the table below.</p>}
      </div>
      <details className="admin-chart__table">
        <summary>Show the figures as a table</summary>
        <TableBox caption="Orders placed and revenue of the paid ones, per day">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Orders</th>
              <th scope="col">Revenue</th>
            </tr>
          </thead>
          <tbody>
            {daily.map((d) => (
              <tr key={d.day}>
                <th scope="row">
                  <time dateTime={d.day}>{shortDay(d.day)}</time>
                </th>
                <td>{d.orders}</td>
                <td>{formatNaira(d.revenue)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">30 days</th>
              <td>{totals.orders}</td>
              <td>{formatNaira(totals.revenue)}</td>
            </tr>
          </tfoot>
        </TableBox>
      </details>
    </section>
  );
}
