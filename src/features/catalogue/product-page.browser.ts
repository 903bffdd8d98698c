import { ApiRequestError, callApi } from '../../lib/api-client.browser.ts';
import { formatNaira } from '../../lib/money.ts';
import { addProductToCart } from '../cart/add-to-cart.browser.ts';
import { mostPerOrder } from '../cart/cart.ts';
import { onReconnect } from '../pwa/connection.browser.ts';
import {
  addButtonName,
  findVariant,
  initialVariant,
  type ProductSale,
  parseQuantity,
  productSaleSchema,
  sellingUnit,
  stockClass,
  perOrderText,
  stockText,
  variantOptionText,
} from './product-choice.ts';
import { productSaleApi } from './product-sale-api.ts';

/**
 * The product page's buy form, made to answer in place by a plain script: the page is HTML
 * (ProductDetail, rendered at build or from D1 by the Worker) and ships no framework
 * (docs/decisions/004-plain-scripts.md). The form posts to /cart/add without JavaScript, and
 * before this script has run on a slow link; from here:
 * - the variant menu (and a shared link's ?variant=) shows that variant's price, stock and
 *   picture, and the address names it (replaced, not pushed: Back leaves the product);
 * - the quantity box keeps to a whole number the shopper may buy, and says why it changed one;
 * - Add to Cart adds to the cart kept in this browser with the toast '{name} added to cart';
 * - when the connection comes back, price and stock are read again from the API (an archived
 *   product reloads the page, which the Worker answers with 'Product not found').
 * The form says it is ready with `data-ready`.
 */
function sell(form: HTMLFormElement) {
  const read = productSaleSchema.safeParse(safeJson(form.dataset.sale));
  if (!read.success) return; // The form still posts to /cart/add.
  let sale: ProductSale = read.data;

  const found = form.querySelector('select[name="variant"]');
  // Read with instanceof, not querySelector<T>: the Worker's types (astro check) disagree on HTMLSelectElement.
  const select = found instanceof HTMLSelectElement ? found : null;
  const quantity = form.querySelector<HTMLInputElement>('input[name="quantity"]');
  const quantityField = form.querySelector<HTMLElement>('[data-quantity-field]');
  const note = form.querySelector<HTMLElement>('#quantity-note');
  const less = form.querySelector<HTMLButtonElement>('[data-step="-1"]');
  const more = form.querySelector<HTMLButtonElement>('[data-step="1"]');
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const addLabel = form.querySelector<HTMLElement>('[data-add-label]');
  const prices = document.querySelectorAll<HTMLElement>('[data-unit-price]');
  const stockLine = document.querySelector<HTMLElement>('[data-stock] > span');
  const image = document.querySelector<HTMLImageElement>('img[data-unit-image]');

  const requested = new URLSearchParams(window.location.search).get('variant');
  // A shared link's variant, else what the browser kept in the menu (Back to this page).
  let variantId = initialVariant(sale, requested ?? select?.value);
  let quantityNote = '';

  const unit = () => sellingUnit(sale, variantId) ?? { price: sale.price, stock: 0, image: sale.image };
  const maxQuantity = () => Math.max(1, mostPerOrder(unit().stock));
  const typed = () => Number.parseInt(quantity?.value ?? '', 10);

  const showQuantity = () => {
    const max = maxQuantity();
    if (less) less.disabled = !(typed() > 1);
    if (more) more.disabled = typed() >= max;
    if (note) note.textContent = quantityNote || perOrderText(unit().stock);
  };
  /** The typed quantity as a whole number within what can be bought; says so when it had to change it. */
  const settleQuantity = (text = quantity?.value ?? '1') => {
    const settled = parseQuantity(text, maxQuantity());
    if (quantity) quantity.value = String(settled.quantity);
    quantityNote = settled.note;
    showQuantity();
    return settled.quantity;
  };
  const show = () => {
    const { price, stock, image: picture } = unit();
    const canBuy = stock > 0;
    for (const element of prices) element.textContent = formatNaira(price);
    if (stockLine) {
      stockLine.textContent = stockText(stock);
      stockLine.className = stockClass(stock);
    }
    if (image && image.getAttribute('src') !== picture) image.src = picture;
    if (select) {
      select.value = variantId;
      for (const option of select.options) {
        const variant = findVariant(sale, option.value);
        if (variant) option.textContent = variantOptionText(sale, variant);
      }
    }
    if (quantityField) quantityField.hidden = !canBuy;
    if (submit) submit.disabled = !canBuy;
    if (addLabel) addLabel.textContent = canBuy ? 'Add to Cart' : 'Out of stock';
    submit?.setAttribute('aria-label', addButtonName(sale.name, findVariant(sale, variantId)?.label, canBuy));
    showQuantity();
  };

  select?.addEventListener('change', () => {
    variantId = select.value;
    const url = new URL(window.location.href);
    url.searchParams.set('variant', variantId);
    window.history.replaceState(window.history.state, '', url);
    show();
  });
  quantity?.addEventListener('input', () => {
    quantityNote = '';
    showQuantity();
  });
  quantity?.addEventListener('blur', () => settleQuantity());
  less?.addEventListener('click', () => settleQuantity(String(typed() - 1)));
  more?.addEventListener('click', () => settleQuantity(String((typed() || 0) + 1)));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (unit().stock <= 0) return;
    addProductToCart(sale, variantId, settleQuantity());
  });
  onReconnect(() => {
    callApi(productSaleApi.get, { params: { id: sale.id } }).then(
      (fresh) => {
        sale = fresh;
        variantId = initialVariant(sale, variantId);
        show();
      },
      (error: unknown) => {
        if (error instanceof ApiRequestError && error.status === 404) window.location.reload();
      },
    );
  });

  show();
  form.setAttribute('data-ready', '');
}

function safeJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

const form = document.querySelector<HTMLFormElement>('form[data-product-form]');
if (form) sell(form);
