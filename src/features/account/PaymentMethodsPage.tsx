import { callApi } from '../../lib/api-client.browser.ts';
import { accountApi } from './account-api.ts';
import { LoadedView } from '../loaded/LoadedView.tsx';
import { useLoaded } from '../loaded/use-loaded.browser.ts';
import { AccountNav } from './AccountShell.tsx';
import { accountLoadFailed } from './use-account.browser.ts';

/**
 * /payment-methods: how the store takes payment — the bank account from the Worker's
 * config and the steps. Public: it needs no session.
 */
export default function PaymentMethodsPage() {
  const { loaded, reload } = useLoaded((signal) => callApi(accountApi.paymentMethods, { signal }), {
    errorMessage: accountLoadFailed,
  });
  return (
    <div className="account">
      <AccountNav current="/payment-methods" />
      <div className="account__body">
        <LoadedView loaded={loaded} what="payment details" retry={reload} look="account">
          {({ bankTransfer }) => (
            <section className="card account-pay" aria-labelledby="pay-bank-title">
              <h2 id="pay-bank-title">Bank transfer</h2>
              {bankTransfer.ownAccounts ? (
                <p>
                  Every order is paid by bank transfer. Each order gets an account of its own, shown when you place it and on its
                  tracking page, and the payment confirms itself. An order that shows our account instead is paid into it:
                </p>
              ) : (
                <p>Every order is paid by bank transfer to our account:</p>
              )}
              <dl className="account-pay__bank">
                <div>
                  <dt>Bank</dt>
                  <dd>{bankTransfer.bankName}</dd>
                </div>
                <div>
                  <dt>Account name</dt>
                  <dd>{bankTransfer.accountName}</dd>
                </div>
                <div>
                  <dt>Account number</dt>
                  <dd className="account-pay__number">{bankTransfer.accountNumber}</dd>
                </div>
              </dl>
              <h3>How to pay</h3>
              <ol className="account-pay__steps">
                {bankTransfer.steps.map((step) => (
                  <li key={step}>{step}</li>
                ))}
              </ol>
            </section>
          )}
        </LoadedView>
      </div>
    </div>
  );
}
