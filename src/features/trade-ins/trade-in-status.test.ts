import { describe, expect, it } from 'vitest';
import {
  isFinal,
  movesFrom,
  nextTradeInStatus,
  swapOrderRefusal,
  TRADE_IN_MOVES,
  TRADE_IN_STATUSES,
  type TradeInStatus,
} from './trade-in-status.ts';

describe('the trade-in status machine', () => {
  it('walks the happy path: new → contacted → offer made → accepted → completed', () => {
    const path: [TradeInStatus, Parameters<typeof nextTradeInStatus>[1], 'admin' | 'customer', TradeInStatus][] = [
      ['new', 'contact', 'admin', 'contacted'],
      ['contacted', 'offer', 'admin', 'offer_made'],
      ['offer_made', 'accept', 'customer', 'accepted'],
      ['accepted', 'complete', 'admin', 'completed'],
    ];
    for (const [from, move, actor, to] of path) expect(nextTradeInStatus(from, move, actor)).toEqual({ ok: true, from, to });
  });

  it('lets the admin offer straight away, revise an offer, and offer again after a decline', () => {
    expect(nextTradeInStatus('new', 'offer', 'admin')).toMatchObject({ ok: true, to: 'offer_made' });
    expect(nextTradeInStatus('offer_made', 'offer', 'admin')).toMatchObject({ ok: true, to: 'offer_made' });
    expect(nextTradeInStatus('declined', 'offer', 'admin')).toMatchObject({ ok: true, to: 'offer_made' });
  });

  it('answers to an offer are the shopper’s, and every other move is the admin’s', () => {
    expect(nextTradeInStatus('offer_made', 'accept', 'admin')).toMatchObject({ ok: false, reason: 'not_allowed' });
    expect(nextTradeInStatus('offer_made', 'decline', 'admin')).toMatchObject({ ok: false, reason: 'not_allowed' });
    for (const move of ['contact', 'offer', 'complete', 'close'] as const) {
      expect(nextTradeInStatus('new', move, 'customer')).toMatchObject({ ok: false, reason: 'not_allowed' });
    }
  });

  it('refuses illegal moves with a sentence naming the state', () => {
    expect(nextTradeInStatus('new', 'complete', 'admin')).toEqual({
      ok: false,
      reason: 'illegal',
      message: 'A trade-in that is received cannot be completed.',
    });
    expect(nextTradeInStatus('contacted', 'accept', 'customer')).toMatchObject({ ok: false, reason: 'illegal' });
    expect(nextTradeInStatus('accepted', 'offer', 'admin')).toMatchObject({ ok: false, reason: 'illegal' });
  });

  it('completed and closed are final: no move leaves them', () => {
    for (const status of TRADE_IN_STATUSES) {
      const moves = [...movesFrom(status, 'admin'), ...movesFrom(status, 'customer')];
      expect(moves.length === 0).toBe(isFinal(status));
    }
    for (const move of TRADE_IN_MOVES) {
      expect(nextTradeInStatus('completed', move, 'admin').ok).toBe(false);
      expect(nextTradeInStatus('closed', move, 'customer').ok).toBe(false);
    }
  });

  it('offers each side its own moves', () => {
    expect(movesFrom('offer_made', 'customer')).toEqual(['accept', 'decline']);
    expect(movesFrom('offer_made', 'admin')).toEqual(['offer', 'close']);
    expect(movesFrom('new', 'admin')).toEqual(['contact', 'offer', 'close']);
    expect(movesFrom('accepted', 'admin')).toEqual(['complete', 'close']);
  });
});

describe("a swap's order and the admin's moves", () => {
  const order = (status: string) => ({ number: 'GTS-ABCDEFGHJK', status });

  it('a cash request is never held back', () => {
    expect(swapOrderRefusal('close', 'cash', order('awaiting_payment'))).toBeNull();
    expect(swapOrderRefusal('complete', 'cash', null)).toBeNull();
  });

  it('close waits while an order holds the credit, and not after it ended or when there is none', () => {
    for (const status of ['awaiting_payment', 'payment_reported', 'paid', 'shipped', 'delivered']) {
      expect(swapOrderRefusal('close', 'swap', order(status))).toMatchObject({
        code: 'swap_order_open',
        message: expect.stringContaining('GTS-ABCDEFGHJK'),
      });
    }
    expect(swapOrderRefusal('close', 'swap', order('cancelled'))).toBeNull();
    expect(swapOrderRefusal('close', 'swap', order('expired'))).toBeNull();
    expect(swapOrderRefusal('close', 'swap', null)).toBeNull();
  });

  it('complete waits for a paid order, and says which', () => {
    for (const status of ['paid', 'shipped', 'delivered']) expect(swapOrderRefusal('complete', 'swap', order(status))).toBeNull();
    expect(swapOrderRefusal('complete', 'swap', order('awaiting_payment'))).toEqual({
      code: 'swap_order_unpaid',
      message: "The swap's order GTS-ABCDEFGHJK is not paid yet: complete the swap once it is.",
    });
    expect(swapOrderRefusal('complete', 'swap', order('payment_reported'))?.code).toBe('swap_order_unpaid');
    expect(swapOrderRefusal('complete', 'swap', null)).toEqual({
      code: 'swap_order_unpaid',
      message: 'The shopper has not ordered this swap yet: complete it once its order is paid.',
    });
    expect(swapOrderRefusal('complete', 'swap', order('expired'))).toEqual({
      code: 'swap_order_unpaid',
      message: "The swap's order GTS-ABCDEFGHJK is expired: complete the swap once a new order of it is paid.",
    });
    expect(swapOrderRefusal('complete', 'swap', order('cancelled'))?.code).toBe('swap_order_unpaid');
  });

  it('the other moves are the state machine’s alone', () => {
    for (const move of ['contact', 'offer', 'accept', 'decline'] as const)
      expect(swapOrderRefusal(move, 'swap', order('awaiting_payment'))).toBeNull();
  });
});
