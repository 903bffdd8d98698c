import { Download } from 'lucide-react';
import { useState } from 'react';
import { formatLagosTime } from '../../../lib/time.ts';
import { notify } from '../../toast/notify.browser.ts';
import { LoadedView } from '../../loaded/LoadedView.tsx';
import { useLoaded } from '../../loaded/use-loaded.browser.ts';
import { adminSubscriberApi } from './admin-subscriber-api.ts';
import { type AdminRoute, adminHref, listQuery } from '../../admin/admin-route.ts';
import { ConfirmDialog } from '../../admin/ConfirmDialog.tsx';
import { SearchForm, Pager, TableBox } from '../../admin/ListControls.tsx';
import { FormProblem } from '../../admin/FormProblem.tsx';
import { ScreenHeading } from '../../admin/admin-router.tsx';
import { adminCall, adminErrorMessage, adminLoadFailed } from '../../admin/use-admin.browser.ts';

interface Subscriber {
  id: number;
  email: string;
}

/**
 * Newsletter addresses: search, page, export the confirmed ones as CSV, unsubscribe one. An address
 * that has not opened its confirmation link yet is shown as waiting: it gets no newsletter.
 */
export function SubscribersScreen({ route }: { route: AdminRoute }) {
  const query = listQuery(route);
  const { loaded, reload } = useLoaded((signal) => adminCall(adminSubscriberApi.subscribers, { query, signal }), {
    key: adminHref(route),
    errorMessage: adminLoadFailed,
  });
  const [removing, setRemoving] = useState<{ subscriber: Subscriber; busy?: boolean; problem?: string } | null>(null);

  const remove = async () => {
    if (!removing) return;
    const { subscriber } = removing;
    setRemoving({ subscriber, busy: true });
    try {
      await adminCall(adminSubscriberApi.removeSubscriber, { params: { id: String(subscriber.id) } });
      setRemoving(null);
      notify('success', `${subscriber.email} unsubscribed`);
      reload();
    } catch (error) {
      setRemoving({ subscriber, problem: adminErrorMessage(error, 'We could not unsubscribe them. Please try again.') });
    }
  };

  return (
    <section className="admin-screen" aria-labelledby="admin-screen-title">
      <div className="admin-screen__head">
        <ScreenHeading id="admin-screen-title">Subscribers</ScreenHeading>
        <a className="btn btn-outline" href={adminSubscriberApi.exportSubscribers.path} download="gts-subscribers.csv">
          <Download size={18} aria-hidden="true" /> Export CSV
        </a>
      </div>
      <div className="admin-toolbar">
        <SearchForm id="subscribers-q" label="Search subscribers" placeholder="E-mail address" />
      </div>
      <LoadedView loaded={loaded} what="subscribers" retry={reload} look="admin">
        {(list) =>
          list.subscribers.length === 0 ? (
            <p className="card admin-empty">{route.q ? `No subscriber matches “${route.q}”.` : 'Nobody has subscribed yet.'}</p>
          ) : (
            <>
              <p className="muted">{subscriberCount(list.total, list.confirmed)}</p>
              <TableBox caption="Newsletter subscribers">
                <thead>
                  <tr>
                    <th scope="col">E-mail</th>
                    <th scope="col">Signed up</th>
                    <th scope="col">Status</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.subscribers.map((s) => (
                    <tr key={s.id}>
                      <th scope="row">{s.email}</th>
                      <td>
                        <time dateTime={s.createdAt}>{formatLagosTime(s.createdAt)}</time>
                      </td>
                      <td>
                        {s.confirmedAt ? (
                          <>
                            Confirmed <time dateTime={s.confirmedAt}>{formatLagosTime(s.confirmedAt)}</time>
                          </>
                        ) : (
                          <span className="muted">Waiting for confirmation</span>
                        )}
                      </td>
                      <td>
                        <button
                          type="button"
                          className="btn btn-danger-outline btn-small"
                          onClick={() => setRemoving({ subscriber: s })}
                        >
                          Unsubscribe<span className="visually-hidden"> {s.email}</span>
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </TableBox>
              <Pager route={route} page={list.page} pageSize={list.pageSize} total={list.total} label="Subscribers" />
            </>
          )
        }
      </LoadedView>
      {removing && (
        <ConfirmDialog
          open
          danger
          title="Unsubscribe this address?"
          confirmLabel="Unsubscribe"
          busy={removing.busy}
          onConfirm={remove}
          onClose={() => setRemoving(null)}
        >
          <p>
            <strong>{removing.subscriber.email}</strong> will get no more newsletters. They can subscribe again from the site.
          </p>
          <FormProblem text={removing.problem ?? null} />
        </ConfirmDialog>
      )}
    </section>
  );
}

/**
 * How many subscribe: the confirmed addresses (those the export lists), and those still waiting
 * for their link, which are not subscribers yet.
 */
export function subscriberCount(total: number, confirmed: number): string {
  const waiting = total - confirmed;
  const subscribers = `${confirmed} ${confirmed === 1 ? 'subscriber' : 'subscribers'}`;
  return waiting === 0
    ? `${subscribers}.`
    : `${subscribers}, and ${waiting} ${waiting === 1 ? 'address' : 'addresses'} waiting for confirmation (not in the export).`;
}
