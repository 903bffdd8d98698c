import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { line, placeOrder, SHIPPING } from './orders-helpers.ts';

// Its own file, so its own D1: this order touches 30 products other tests count units of.
describe('POST /api/orders: a large order', () => {
  it('stores every one of 30 lines (written in several inserts: D1 binds at most 100 parameters per statement)', async () => {
    const ids = (await env.DB.prepare('select id from products where stock >= 1 and active = 1 order by id limit 30').all<{ id: string }>()).results.map((r) => r.id);
    expect(ids).toHaveLength(30);
    const lines = await Promise.all(ids.map((id) => line(id, 1)));
    const { order } = await placeOrder({ lines });
    expect(order.lines.map((l) => l.productId)).toEqual(ids);
    const stored = await env.DB.prepare('select count(*) as n, sum(line_total_kobo) as total from order_lines where order_id = (select id from orders where number = ?)')
      .bind(order.number)
      .first<{ n: number; total: number }>();
    expect(stored).toEqual({ n: 30, total: lines.reduce((sum, l) => sum + l.price, 0) });
    expect(order.total).toBe(stored!.total + SHIPPING);
  });
});
