import { Plus } from 'lucide-react';
import { useState } from 'react';
import { formatNaira } from '../../../lib/money.ts';
import { formatLagosTime } from '../../../lib/time.ts';
import { CATEGORIES, type CategoryId, categoryLabel } from '../categories.ts';
import { notify } from '../../toast/notify.browser.ts';
import { LoadedView } from '../../loaded/LoadedView.tsx';
import { useLoaded } from '../../loaded/use-loaded.browser.ts';
import { adminProductApi, type AdminProductSummary } from './admin-product-api.ts';
import { type AdminRoute, adminHref, listQuery } from '../../admin/admin-route.ts';
import { AdminLink, ScreenHeading, useRouter } from '../../admin/admin-router.tsx';
import { SearchForm, Pager, TableBox } from '../../admin/ListControls.tsx';
import { ConfirmDialog } from '../../admin/ConfirmDialog.tsx';
import { FormProblem } from '../../admin/FormProblem.tsx';
import { ProductForm } from './ProductForm.tsx';
import { adminCall, adminErrorMessage, adminLoadFailed } from '../../admin/use-admin.browser.ts';

/** Products: the list (search, category, archived), or the form when the route names one to edit. */
export function ProductsScreen({ route }: { route: AdminRoute }) {
  const { go } = useRouter();
  if (route.edit)
    return (
      <ProductForm
        key={route.edit}
        productId={route.edit === 'new' ? null : route.edit}
        onClose={() => go({ ...route, edit: undefined })}
      />
    );
  return <ProductList route={route} />;
}

interface Deleting {
  product: AdminProductSummary;
  /** From the product's detail: true when orders name it (it will be archived), undefined while asking. */
  ordered?: boolean;
  busy?: boolean;
  problem?: string;
}

function ProductList({ route }: { route: AdminRoute }) {
  const { go } = useRouter();
  const query = listQuery(route);
  const { loaded, reload } = useLoaded((signal) => adminCall(adminProductApi.products, { query, signal }), {
    key: adminHref(route),
    errorMessage: adminLoadFailed,
  });
  const [deleting, setDeleting] = useState<Deleting | null>(null);

  const askDelete = async (product: AdminProductSummary) => {
    setDeleting({ product });
    try {
      const detail = await adminCall(adminProductApi.product, { params: { id: product.id } });
      setDeleting((d) => (d && d.product.id === product.id ? { product, ordered: detail.ordered } : d));
    } catch (error) {
      setDeleting((d) => d && { ...d, problem: adminErrorMessage(error, 'We could not check this product. Please try again.') });
    }
  };

  const confirmDelete = async () => {
    if (!deleting || deleting.ordered === undefined) return;
    const { product } = deleting;
    setDeleting({ ...deleting, busy: true, problem: undefined });
    try {
      const { outcome } = await adminCall(adminProductApi.deleteProduct, { params: { id: product.id } });
      setDeleting(null);
      notify('success', outcome === 'archived' ? `${product.name} archived: it is no longer on sale` : `${product.name} deleted`);
      reload();
    } catch (error) {
      setDeleting({
        ...deleting,
        busy: false,
        problem: adminErrorMessage(error, 'The product could not be deleted. Please try again.'),
      });
    }
  };

  return (
    <section className="admin-screen" aria-labelledby="admin-screen-title">
      <div className="admin-screen__head">
        <ScreenHeading id="admin-screen-title">{route.archived ? 'Archived products' : 'Products'}</ScreenHeading>
        <AdminLink className="btn btn-primary" to={{ ...route, edit: 'new' }}>
          <Plus size={18} aria-hidden="true" /> Add product
        </AdminLink>
      </div>
      <div className="admin-toolbar">
        <SearchForm id="products-q" label="Search products" placeholder="Name, brand or description" />
        <div className="field">
          <label htmlFor="products-category">Category</label>
          <select
            id="products-category"
            className="input"
            value={route.category ?? ''}
            onChange={(e) => go({ ...route, category: (e.target.value || undefined) as CategoryId | undefined, page: undefined })}
          >
            <option value="">All categories</option>
            {CATEGORIES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <div className="admin-check admin-toolbar__check">
          <input
            type="checkbox"
            id="products-archived"
            checked={Boolean(route.archived)}
            onChange={(e) => go({ ...route, archived: e.target.checked || undefined, page: undefined })}
          />
          <label htmlFor="products-archived">Show archived products</label>
        </div>
      </div>
      <LoadedView loaded={loaded} what="products" retry={reload} look="admin">
        {(list) =>
          list.products.length === 0 ? (
            <p className="card admin-empty">No {route.archived ? 'archived ' : ''}products match.</p>
          ) : (
            <>
              <p className="muted">
                {list.total} {list.total === 1 ? 'product' : 'products'}.
              </p>
              <ProductTable products={list.products} route={route} onDelete={askDelete} />
              <Pager route={route} page={list.page} pageSize={list.pageSize} total={list.total} label="Products" />
            </>
          )
        }
      </LoadedView>
      {deleting && (
        <ConfirmDialog
          open
          danger
          title={`Delete ${deleting.product.name}?`}
          confirmLabel={deleting.ordered ? 'Archive it' : 'Delete it'}
          busy={deleting.ordered === undefined || deleting.busy}
          onConfirm={confirmDelete}
          onClose={() => setDeleting(null)}
        >
          {deleting.ordered === undefined && !deleting.problem ? (
            <p role="status">Checking whether it was ever ordered…</p>
          ) : deleting.ordered ? (
            <p>
              Orders or trade-in requests name this product, so it will be <strong>archived</strong>: it leaves the shop, and they
              keep it. You can find it under “Show archived products”.
            </p>
          ) : deleting.ordered === false ? (
            <p>
              No order or trade-in names it, so it will be <strong>deleted</strong> for good.
            </p>
          ) : null}
          <FormProblem text={deleting.problem ?? null} />
        </ConfirmDialog>
      )}
    </section>
  );
}

function ProductTable({
  products,
  route,
  onDelete,
}: {
  products: AdminProductSummary[];
  route: AdminRoute;
  onDelete: (product: AdminProductSummary) => void;
}) {
  return (
    <TableBox caption={route.archived ? 'Archived products' : 'Products on sale'}>
      <thead>
        <tr>
          <th scope="col">Product</th>
          <th scope="col">Category</th>
          <th scope="col">Price</th>
          <th scope="col">Stock</th>
          <th scope="col">Updated</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {products.map((p) => (
          <tr key={p.id}>
            <th scope="row">
              <span className="admin-product">
                <img src={p.image} alt="" width={40} height={40} loading="lazy" />
                <span>
                  {p.name}
                  <br />
                  <span className="muted">
                    {p.brand}
                    {p.variants > 0 && ` · ${p.variants} variants`}
                    {p.featured && ' · Featured'}
                    {!p.active && ' · Archived'}
                  </span>
                </span>
              </span>
            </th>
            <td>{categoryLabel(p.category)}</td>
            <td className="admin-num">
              {p.variants > 0 && 'from '}
              {formatNaira(p.price)}
            </td>
            <td className="admin-num">
              {p.stock === 0 ? <span className="admin-stock admin-stock--out">Sold out</span> : p.stock}
            </td>
            <td>
              <time dateTime={p.updatedAt}>{formatLagosTime(p.updatedAt)}</time>
            </td>
            <td>
              <span className="admin-row-actions">
                <AdminLink className="btn btn-outline btn-small" to={{ ...route, edit: p.id }}>
                  Edit<span className="visually-hidden"> {p.name}</span>
                </AdminLink>
                {p.active && (
                  <button type="button" className="btn btn-danger-outline btn-small" onClick={() => onDelete(p)}>
                    Delete<span className="visually-hidden"> {p.name}</span>
                  </button>
                )}
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </TableBox>
  );
}
