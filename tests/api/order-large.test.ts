import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { line, placeOrder, SHIPPING } from './orders-helpers.ts';

// Its own file, so its own D1: this order touches 10 products other tests count units of.
describe('POST /api/orders: a large order', () => {
  it('stores every one of 10 lines, the most an order may have (MAX_ORDER_LINES)', async () => {
    // Products (or their first variants) with 5 units to sell.
    const ids = (
      await env.DB.prepare(
        `select p.id from products p left join product_variants v on v.product_id = p.id and v.position = 0
          where coalesce(v.stock, p.stock) >= 5 and p.active = 1 order by p.id limit 10`,
      ).all<{ id: string }>()
    ).results.map((r) => r.id);
    expect(ids).toHaveLength(10);
    const lines = await Promise.all(ids.map((id) => line(id, 5)));
    const { order } = await placeOrder({ lines });
    expect(order.lines.map((l) => l.productId)).toEqual(ids);
    const stored = await env.DB.prepare(
      'select count(*) as n, sum(line_total_kobo) as total from order_lines where order_id = (select id from orders where number = ?)',
    )
      .bind(order.number)
      .first<{ n: number; total: number }>();
    expect(stored).toEqual({ n: 10, total: lines.reduce((sum, l) => sum + 5 * l.price, 0) });
    expect(order.total).toBe(stored!.total + SHIPPING);
  });
});
