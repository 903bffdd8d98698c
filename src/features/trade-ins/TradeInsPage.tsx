import { AccountShell } from '../account/AccountShell.tsx';
import { accountLoadFailed } from '../account/use-account.browser.ts';
import { LoadedView } from '../loaded/LoadedView.tsx';
import { useLoaded } from '../loaded/use-loaded.browser.ts';
import { myTradeIns } from './api-client.browser.ts';
import type { TradeInView } from './trade-in.ts';
import TradeInCard from './TradeInCard.tsx';

/** /trade-ins: the signed-in shopper's trade-in requests, newest first, each with its actions. */
export default function TradeInsPage() {
  return (
    <AccountShell current="/trade-ins" purpose="see your trade-in requests">
      {() => <TradeIns />}
    </AccountShell>
  );
}

function TradeIns() {
  const { loaded, update, reload: retry } = useLoaded((signal) => myTradeIns(signal), { errorMessage: accountLoadFailed });
  const replace = (tradeIn: TradeInView) => update((all) => all.map((t) => (t.reference === tradeIn.reference ? tradeIn : t)));
  const reload = async (reference: string) => {
    const fresh = (await myTradeIns()).find((t) => t.reference === reference);
    if (!fresh) throw new Error(`${reference} is no longer listed`);
    return fresh;
  };
  return (
    <LoadedView loaded={loaded} what="your trade-ins" retry={retry} look="account">
      {(tradeIns) =>
        tradeIns.length === 0 ? (
          <div className="card account__empty">
            <h2>No trade-in requests yet</h2>
            <p className="muted">Requests you send while signed in appear here, with our offer and what happens next.</p>
            <a className="btn btn-primary" href="/sell-or-swap">
              Sell or swap a device
            </a>
          </div>
        ) : (
          <ul className="trade-in-list">
            {tradeIns.map((tradeIn) => (
              <li key={tradeIn.reference}>
                <TradeInCard tradeIn={tradeIn} proof={{}} onChange={replace} reload={() => reload(tradeIn.reference)} />
              </li>
            ))}
          </ul>
        )
      }
    </LoadedView>
  );
}
