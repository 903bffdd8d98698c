/**
 * The product page before its island is ready (slow links take seconds): a plain script,
 * loaded with the page, that
 * - shows the variant a shared link names (?variant=) with its price and stock at once;
 * - keeps price and stock in step with a variant chosen before hydration;
 * - records what the shopper chose on the form (data-variant, data-quantity), which the
 *   island (ProductDetail) takes over when it mounts.
 * The form itself posts to /cart/add, so Add to Cart works before hydration too.
 * Once the island has mounted (data-hydrated), this script does nothing more.
 */
const asSelect = (element: unknown) => (element instanceof HTMLSelectElement ? element : null);
const asInput = (element: unknown) => (element instanceof HTMLInputElement ? element : null);

function follow(form: HTMLFormElement) {
  const select = asSelect(form.querySelector('select[name="variant"]'));
  const quantity = asInput(form.querySelector('input[name="quantity"]'));
  const show = () => {
    const option = select?.selectedOptions[0];
    if (!select || !option || form.hasAttribute('data-hydrated')) return;
    form.dataset.variant = select.value;
    for (const price of document.querySelectorAll<HTMLElement>('[data-price], .detail__cta-price')) {
      price.textContent = option.dataset.price ?? price.textContent;
    }
    const stock = document.querySelector<HTMLElement>('[data-stock] > span');
    if (stock) stock.textContent = option.dataset.stockText ?? stock.textContent;
  };
  const requested = new URLSearchParams(window.location.search).get('variant');
  if (select && requested && [...select.options].some((o) => o.value === requested)) {
    select.value = requested;
    show();
  }
  select?.addEventListener('change', show);
  quantity?.addEventListener('input', () => {
    if (!form.hasAttribute('data-hydrated')) form.dataset.quantity = quantity.value;
  });
}

const form = document.querySelector<HTMLFormElement>('form[data-product-form]');
if (form) follow(form);
