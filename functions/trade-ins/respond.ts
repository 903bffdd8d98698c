import type { TradeInView } from '../../src/features/trade-ins/trade-in.ts';
import type { Db } from '../platform/db.ts';
import { ApiError } from '../platform/errors.ts';
import type { TradeInRow } from '../platform/schema.ts';
import type { Config } from '../env.ts';
import { moveTradeIn, reloadTradeIn } from './move.ts';
import { loadTradeInView } from './view.ts';

/** The requester's answer to the store's offer: the decision and the offer (kobo) they saw. */
interface OfferAnswer {
  decision: 'accept' | 'decline';
  offer: number;
}

/**
 * The requester accepts or declines the offer they saw (`userId`: their account when signed in).
 * Answering again the same way (a double click, a retry after a lost answer) gets the request
 * as it now is, not an error. `moved` says whether this answer made the move (and so queued an e-mail).
 */
export async function respondToOffer(
  db: Db,
  config: Config,
  row: TradeInRow,
  { decision, offer }: OfferAnswer,
  userId: string | null,
): Promise<{ tradeIn: TradeInView; moved: boolean }> {
  const done = decision === 'accept' ? 'accepted' : 'declined';
  try {
    const tradeIn = await moveTradeIn(db, config, row, decision, { actor: 'customer', userId }, { seenOffer: offer });
    return { tradeIn, moved: true };
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) {
      const current = await reloadTradeIn(db, row);
      if (current.status === done && current.offer === offer)
        return { tradeIn: await loadTradeInView(db, current), moved: false };
    }
    throw err;
  }
}
