import { describe, expect, it } from 'vitest';
import {
  isFinal,
  movesFrom,
  nextTradeInStatus,
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
