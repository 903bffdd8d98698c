import { describe, expect, it } from 'vitest';
import {
  adminPaymentEvent,
  awaitsPayment,
  expiresByClock,
  isClosedWithoutSale,
  nextStatus,
  ORDER_ACTORS,
  ORDER_EVENTS,
  ORDER_STATUSES,
  ownAccount,
  showsPaymentDetails,
  statusBadge,
  statusText,
  type OrderStatus,
} from './order-status.ts';

/**
 * The specification of the order life cycle (docs/architecture.md, decisions 005 and 007),
 * written out here and not derived from the code: the statuses, events and actors, and for
 * every status × event the outcome when the customer, an admin, the system and the payment
 * provider (its signed webhook) ask for it.
 */
const STATUSES = ['awaiting_payment', 'payment_reported', 'paid', 'shipped', 'delivered', 'cancelled', 'expired'] as const;
const EVENTS = ['report_payment', 'confirm_payment', 'ship', 'deliver', 'cancel', 'expire', 'accept_late_payment'] as const;
const ACTORS = ['customer', 'admin', 'system', 'provider'] as const;

/** What a move leads to: the new status, 'illegal' (409: not from here) or 'forbidden' (403: not by this actor). */
type Outcome = (typeof STATUSES)[number] | 'illegal' | 'forbidden';
const X = 'illegal';
const F = 'forbidden';

const EXPECTED: Record<
  (typeof STATUSES)[number],
  Record<(typeof EVENTS)[number], [customer: Outcome, admin: Outcome, system: Outcome, provider: Outcome]>
> = {
  awaiting_payment: {
    // The provider confirms only what its signed webhook says arrived (functions/payments/).
    report_payment: ['payment_reported', F, F, F],
    // An admin may confirm a transfer seen before the shopper reported it.
    confirm_payment: [F, 'paid', F, 'paid'],
    ship: [F, X, F, F],
    deliver: [F, X, F, F],
    cancel: ['cancelled', 'cancelled', F, F],
    expire: [F, F, 'expired', F],
    accept_late_payment: [F, X, F, X],
  },
  payment_reported: {
    report_payment: [X, F, F, F],
    confirm_payment: [F, 'paid', F, 'paid'],
    ship: [F, X, F, F],
    deliver: [F, X, F, F],
    // Once a transfer is reported, only a person who checked the bank statement drops the order.
    cancel: [F, 'cancelled', F, F],
    // Decision 007, amended: a report nobody confirms within PAYMENT_REPORT_HOLD_HOURS expires too.
    expire: [F, F, 'expired', F],
    accept_late_payment: [F, X, F, X],
  },
  paid: {
    report_payment: [X, F, F, F],
    confirm_payment: [F, X, F, X],
    ship: [F, 'shipped', F, F],
    deliver: [F, X, F, F],
    cancel: [F, 'cancelled', F, F],
    expire: [F, F, X, F],
    accept_late_payment: [F, X, F, X],
  },
  shipped: {
    report_payment: [X, F, F, F],
    confirm_payment: [F, X, F, X],
    ship: [F, X, F, F],
    deliver: [F, 'delivered', F, F],
    cancel: [F, X, F, F],
    expire: [F, F, X, F],
    accept_late_payment: [F, X, F, X],
  },
  delivered: {
    report_payment: [X, F, F, F],
    confirm_payment: [F, X, F, X],
    ship: [F, X, F, F],
    deliver: [F, X, F, F],
    cancel: [F, X, F, F],
    expire: [F, F, X, F],
    accept_late_payment: [F, X, F, X],
  },
  cancelled: {
    report_payment: [X, F, F, F],
    confirm_payment: [F, X, F, X],
    ship: [F, X, F, F],
    deliver: [F, X, F, F],
    cancel: [F, X, F, F],
    expire: [F, F, X, F],
    accept_late_payment: [F, X, F, X],
  },
  expired: {
    // Money that lands after the expiry: paid if the stock can be taken again (the move's batch).
    report_payment: [X, F, F, F],
    confirm_payment: [F, X, F, X],
    ship: [F, X, F, F],
    deliver: [F, X, F, F],
    cancel: [F, X, F, F],
    expire: [F, F, X, F],
    // A transfer found after expiry: the provider's webhook, or an admin reading the shared account's statement.
    accept_late_payment: [F, 'paid', F, 'paid'],
  },
};

/** Only the closings without a sale put the order's stock back on sale. */
const RELEASES_STOCK: readonly Outcome[] = ['cancelled', 'expired'];

const cases = Object.entries(EXPECTED).flatMap(([from, events]) =>
  Object.entries(events).flatMap(([event, outcomes]) =>
    ACTORS.map((actor, i) => [from as OrderStatus, event as (typeof EVENTS)[number], actor, outcomes[i]!] as const),
  ),
);

describe('nextStatus', () => {
  it('knows exactly the statuses, events and actors of the specification', () => {
    expect([...ORDER_STATUSES]).toEqual([...STATUSES]);
    expect([...ORDER_EVENTS]).toEqual([...EVENTS]);
    expect([...ORDER_ACTORS]).toEqual([...ACTORS]);
    expect(cases).toHaveLength(7 * 7 * 4);
  });

  it.each(cases)('%s + %s by %s → %s', (from, event, actor, outcome) => {
    const move = nextStatus(from, event, actor);
    if (outcome === X || outcome === F) {
      expect(move).toEqual({ ok: false, reason: outcome === X ? 'illegal' : 'not_allowed', message: expect.any(String) });
    } else {
      expect(move).toEqual({
        ok: true,
        from,
        to: outcome,
        releasesStock: RELEASES_STOCK.includes(outcome),
        takesStock: RELEASES_STOCK.includes(from) && !RELEASES_STOCK.includes(outcome),
      });
    }
  });

  it('explains a refusal in words a person can read', () => {
    expect(nextStatus('shipped', 'cancel', 'admin')).toMatchObject({ message: 'An order that is shipped cannot be cancelled.' });
    expect(nextStatus('awaiting_payment', 'confirm_payment', 'customer')).toMatchObject({
      message: 'A customer cannot confirm payment for an order that is awaiting payment.',
    });
    expect(nextStatus('paid', 'report_payment', 'admin')).toMatchObject({
      message: 'An admin cannot report payment for an order that is paid, being packed.',
    });
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
    expect(details).toEqual([
      'Awaiting payment',
      'Payment reported, waiting for us to confirm the transfer',
      'Paid, being packed',
    ]);
  });

  it('does not say "us" for a transfer into the order\'s own account, which confirms itself; other states read the same', () => {
    const own = (['awaiting_payment', 'payment_reported', 'paid'] as const).map(
      (s) => statusBadge(s, { ownAccount: true }).detail,
    );
    expect(own).toEqual([
      'Awaiting payment',
      'Payment reported, waiting for the transfer to reach its account',
      'Paid, being packed',
    ]);
    expect(statusText('payment_reported', { ownAccount: true })).toBe(
      'payment reported, waiting for the transfer to reach its account',
    );
    expect(statusText('payment_reported', { ownAccount: false })).toBe(
      'payment reported, waiting for us to confirm the transfer',
    );
    // Once paid the order shows no payment details, but it still had its own account.
    expect(ownAccount({ paidIntoOwnAccount: true, payment: null })).toBe(true);
    expect(ownAccount({ payment: { ownAccount: true } })).toBe(true);
    expect(ownAccount({ paidIntoOwnAccount: false, payment: null })).toBe(false);
  });
});

describe('status helpers', () => {
  it('asks for the transfer only while awaiting payment', () => {
    expect(STATUSES.filter(awaitsPayment)).toEqual(['awaiting_payment']);
  });

  it('shows the bank details while the transfer is due and after it was reported (the shopper may check what they sent)', () => {
    expect(STATUSES.filter(showsPaymentDetails)).toEqual(['awaiting_payment', 'payment_reported']);
  });

  it('lets the clock expire unpaid orders and unconfirmed payment reports, nothing else', () => {
    expect(STATUSES.filter(expiresByClock)).toEqual(['awaiting_payment', 'payment_reported']);
  });

  it('counts cancelled and expired orders as closed without a sale', () => {
    expect(STATUSES.filter(isClosedWithoutSale)).toEqual(['cancelled', 'expired']);
  });
});

describe("an admin's Confirm payment", () => {
  it('pays an unpaid order, and revives an expired one (a transfer found late on the statement)', () => {
    expect(adminPaymentEvent('awaiting_payment')).toBe('confirm_payment');
    expect(adminPaymentEvent('payment_reported')).toBe('confirm_payment');
    expect(adminPaymentEvent('expired')).toBe('accept_late_payment');
    expect(nextStatus('expired', adminPaymentEvent('expired'), 'admin')).toMatchObject({
      ok: true,
      to: 'paid',
      takesStock: true,
    });
    // Nothing else: a cancelled order's transfer is refunded, a paid one's is extra.
    for (const status of ['paid', 'shipped', 'delivered', 'cancelled'] as const)
      expect(nextStatus(status, adminPaymentEvent(status), 'admin').ok).toBe(false);
  });
});
