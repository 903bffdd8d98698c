import { callApi } from '../../lib/api-client.browser.ts';
import { formatNaira } from '../../lib/money.ts';
import { formatLagosTime } from '../../lib/time.ts';
import { accountApi, type Transaction } from './account-api.ts';
import { LoadedView } from '../loaded/LoadedView.tsx';
import { useLoaded } from '../loaded/use-loaded.browser.ts';
import { AccountShell } from './AccountShell.tsx';
import { accountLoadFailed } from './use-account.browser.ts';
import '../orders/orders.css';

/** /transactions: the bank transfers behind the signed-in user's orders, newest first. */
export default function TransactionsPage() {
  return (
    <AccountShell current="/transactions" purpose="see your payments">
      {() => <Transactions />}
    </AccountShell>
  );
}

const STATUS: Record<Transaction['status'], { label: string; tone: string }> = {
  due: { label: 'Due', tone: 'yellow' },
  reported: { label: 'Reported', tone: 'blue' },
  confirmed: { label: 'Confirmed', tone: 'green' },
  cancelled: { label: 'Cancelled', tone: 'red' },
  expired: { label: 'Expired', tone: 'grey' },
};

function When({ at }: { at: string | null }) {
  if (!at) {
    return (
      <>
        <span aria-hidden="true">—</span>
        <span className="visually-hidden">Not yet</span>
      </>
    );
  }
  return <time dateTime={at}>{formatLagosTime(at)}</time>;
}

function Transactions() {
  const { loaded, reload } = useLoaded((signal) => callApi(accountApi.transactions, { signal }).then((r) => r.transactions), {
    errorMessage: accountLoadFailed,
  });
  return (
    <LoadedView loaded={loaded} what="your payments" retry={reload} look="account">
      {(transactions) =>
        transactions.length === 0 ? (
          <div className="card account__empty">
            <h2>No payments yet</h2>
            <p className="muted">When you order while signed in, the bank transfer for each order shows here.</p>
            <a className="btn btn-primary" href="/products">
              Start shopping
            </a>
          </div>
        ) : (
          <>
            {/* Shown on a phone only, where the status and dates are past the screen's edge. */}
            <p className="muted account-table__hint">Scroll the table sideways for each transfer's status and dates.</p>
            {/* A wide table scrolls on its own on a phone; the region makes it reachable by keyboard. */}
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to scroll by keyboard */}
            <section className="card account-table" aria-labelledby="transactions-caption" tabIndex={0}>
              <table>
                <caption id="transactions-caption">Bank transfers for your orders, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Order</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Reference</th>
                    <th scope="col">Status</th>
                    <th scope="col">Placed</th>
                    <th scope="col">Reported</th>
                    <th scope="col">Confirmed</th>
                  </tr>
                </thead>
                <tbody>
                  {transactions.map((t) => {
                    const status = STATUS[t.status];
                    return (
                      <tr key={t.orderNumber}>
                        <th scope="row">
                          <a href={`/track?order=${encodeURIComponent(t.orderNumber)}`}>{t.orderNumber}</a>
                        </th>
                        <td className="account-table__amount">{formatNaira(t.amount)}</td>
                        <td>{t.reference}</td>
                        <td>
                          <span className={`status-badge status-badge--${status.tone}`} data-status={t.status}>
                            {status.label}
                          </span>
                        </td>
                        <td>
                          <When at={t.createdAt} />
                        </td>
                        <td>
                          <When at={t.reportedAt} />
                        </td>
                        <td>
                          <When at={t.confirmedAt} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </section>
          </>
        )
      }
    </LoadedView>
  );
}
