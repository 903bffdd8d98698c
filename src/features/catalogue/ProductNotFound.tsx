/**
 * 'Product not found': what /product/{id} shows for an id D1 does not sell (an unknown id, or
 * a product archived since the build), rendered by the on-demand page as static HTML.
 */
export function ProductNotFound() {
  return (
    <div className="card product-missing">
      <h1>Product not found</h1>
      <p className="muted">This product is not in our catalogue any more, or the link is mistyped.</p>
      {/* Filled in by the Worker on the page it answers with 404 (functions/platform/request-log.ts). */}
      <p className="muted" data-request-ref hidden>
        Reference: <code data-request-id />
      </p>
      <a className="btn btn-primary" href="/products">
        Browse all products
      </a>
    </div>
  );
}
