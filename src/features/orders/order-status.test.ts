import { describe, expect, it } from 'vitest';
import {
  awaitsPayment,
  isClosedWithoutSale,
  nextStatus,
  ORDER_EVENTS,
  ORDER_STATUSES,
  statusBadge,
  type OrderActor,
  type OrderEvent,
  type OrderStatus,
} from './order-status.ts';

/** What a move leads to: the new status, 'illegal' (409: not from here) or 'forbidden' (403: not by this actor). */
type Outcome = OrderStatus | 'illegal' | 'forbidden';
const X = 'illegal';
const F = 'forbidden';

/**
 * The whole life cycle, written out: for each status and event, the outcome when
 * the customer, an admin and the system ask for it.
 */
const EXPECTED: Record<OrderStatus, Record<OrderEvent, [customer: Outcome, admin: Outcome, system: Outcome]>> = {
  awaiting_payment: {
    report_payment: ['payment_reported', F, F],
    confirm_payment: [F, 'paid', F],
    ship: [F, X, F],
    deliver: [F, X, F],
    cancel: ['cancelled', 'cancelled', F],
    expire: [F, F, 'expired'],
  },
  payment_reported: {
    report_payment: [X, F, F],
    confirm_payment: [F, 'paid', F],
    ship: [F, X, F],
    deliver: [F, X, F],
    cancel: [F, 'cancelled', F],
    expire: [F, F, X],
  },
  paid: {
    report_payment: [X, F, F],
    confirm_payment: [F, X, F],
    ship: [F, 'shipped', F],
    deliver: [F, X, F],
    cancel: [F, 'cancelled', F],
    expire: [F, F, X],
  },
  shipped: {
    report_payment: [X, F, F],
    confirm_payment: [F, X, F],
    ship: [F, X, F],
    deliver: [F, 'delivered', F],
    cancel: [F, X, F],
    expire: [F, F, X],
  },
  delivered: {
    report_payment: [X, F, F],
    confirm_payment: [F, X, F],
    ship: [F, X, F],
    deliver: [F, X, F],
    cancel: [F, X, F],
    expire: [F, F, X],
  },
  cancelled: {
    report_payment: [X, F, F],
    confirm_payment: [F, X, F],
    ship: [F, X, F],
    deliver: [F, X, F],
    cancel: [F, X, F],
    expire: [F, F, X],
  },
  expired: {
    report_payment: [X, F, F],
    confirm_payment: [F, X, F],
    ship: [F, X, F],
    deliver: [F, X, F],
    cancel: [F, X, F],
    expire: [F, F, X],
  },
};

const ACTORS: OrderActor[] = ['customer', 'admin', 'system'];

const cases = ORDER_STATUSES.flatMap((from) =>
  ORDER_EVENTS.flatMap((event) => ACTORS.map((actor, i) => [from, event, actor, EXPECTED[from][event][i]!] as const)),
);

describe('nextStatus', () => {
  it('is tested for every status, event and actor', () => {
    expect(cases).toHaveLength(ORDER_STATUSES.length * ORDER_EVENTS.length * ACTORS.length);
    expect(Object.keys(EXPECTED).sort()).toEqual([...ORDER_STATUSES].sort());
  });

  it.each(cases)('%s + %s by %s → %s', (from, event, actor, outcome) => {
    const move = nextStatus(from, event, actor);
    if (outcome === X || outcome === F) {
      expect(move).toEqual({ ok: false, reason: outcome === X ? 'illegal' : 'not_allowed', message: expect.any(String) });
    } else {
      expect(move).toEqual({ ok: true, from, to: outcome, releasesStock: outcome === 'cancelled' || outcome === 'expired' });
    }
  });

  it('explains a refusal in words a person can read', () => {
    expect(nextStatus('shipped', 'cancel', 'admin')).toMatchObject({ message: 'An order that is shipped cannot be cancelled.' });
    expect(nextStatus('awaiting_payment', 'confirm_payment', 'customer')).toMatchObject({
      message: 'A customer cannot confirm payment for an order that is awaiting payment.',
    });
    expect(nextStatus('paid', 'report_payment', 'admin')).toMatchObject({ message: 'An admin cannot report payment for an order that is paid, being packed.' });
    expect(nextStatus('payment_reported', 'cancel', 'customer')).toMatchObject({
      message: 'A customer cannot cancel an order that is payment reported, waiting for us to confirm the transfer.',
    });
  });
});

describe('statusBadge', () => {
  it.each<[OrderStatus, string, string]>([
    ['awaiting_payment', 'Processing', 'yellow'],
    ['payment_reported', 'Processing', 'yellow'],
    ['paid', 'Processing', 'yellow'],
    ['shipped', 'Shipped', 'blue'],
    ['delivered', 'Delivered', 'green'],
    ['cancelled', 'Cancelled', 'red'],
    ['expired', 'Expired', 'grey'],
  ])('shows %s as %s in %s', (status, label, tone) => {
    expect(statusBadge(status)).toMatchObject({ label, tone, detail: expect.stringMatching(/^[A-Z]/) });
  });

  it('tells the three processing states apart in its detail', () => {
    const details = (['awaiting_payment', 'payment_reported', 'paid'] as const).map((s) => statusBadge(s).detail);
    expect(details).toEqual(['Awaiting payment', 'Payment reported, waiting for us to confirm the transfer', 'Paid, being packed']);
  });
});

describe('status helpers', () => {
  it('asks for the transfer only while awaiting payment', () => {
    expect(ORDER_STATUSES.filter(awaitsPayment)).toEqual(['awaiting_payment']);
  });

  it('counts cancelled and expired orders as closed without a sale', () => {
    expect(ORDER_STATUSES.filter(isClosedWithoutSale)).toEqual(['cancelled', 'expired']);
  });
});
