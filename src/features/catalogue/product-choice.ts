// No zod here: the product page's plain script (product-page.browser.ts) runs this, and any zod
// schema in the browser brings zod's ~17 KB core with it (src/lib/light-schema.ts).
import { array, type Infer, int, nullable, object, string } from '../../lib/light-schema.ts';
import { formatNaira } from '../../lib/money.ts';
import { MAX_LINE_QUANTITY, MAX_UNITS_PER_PRODUCT, mostPerOrder, UNPAID_SHARE_PER_PRODUCT } from '../cart/cart.ts';
import type { Product } from './product.ts';

/** A product (or variant) can be bought while it has stock. */
export function isInStock(stock: number): boolean {
  return stock > 0;
}

/**
 * The most units of a product (or variant) a shopper is told of: "10" reads "10 or more". Every
 * check a shopper meets compares with at most that many: MAX_UNITS_PER_PRODUCT (5) a line, "Only 5
 * left", and the share unpaid orders may hold (half of 10 is the 5 one order may take:
 * mostPerOrder() in src/features/cart/cart.ts). So nothing they see changes, while the exact count
 * above it, which tells a competitor how fast a product sells, stays with the admins (their API
 * reads D1's own figure). Below it, the cart's quote tells a count to within one anyway (how many
 * may wait unpaid).
 */
export const SHOPPER_STOCK_CAP = Math.ceil(MAX_UNITS_PER_PRODUCT / UNPAID_SHARE_PER_PRODUCT);

/** What a shopper's page or API answer says of a product: its stock and its variants' up to SHOPPER_STOCK_CAP. */
export function forShoppers<P extends { stock: number; variants: readonly { stock: number }[] }>(product: P): P {
  return {
    ...product,
    stock: Math.min(product.stock, SHOPPER_STOCK_CAP),
    variants: product.variants.map((v) => ({ ...v, stock: Math.min(v.stock, SHOPPER_STOCK_CAP) })),
  };
}

/**
 * What the product page needs to sell a product: its name, picture and each variant's price and
 * stock. The page carries it (ProductDetail's `data-sale`), and the API's product answer has it,
 * so both are read with this one light check.
 */
export const productSaleSchema = object({
  id: string({ min: 1 }),
  name: string({ min: 1 }),
  image: string(),
  price: int({ min: 0 }),
  stock: int(),
  variants: array(
    object({ id: string({ min: 1 }), label: string(), price: int({ min: 0 }), stock: int(), image: nullable(string()) }),
  ),
});

export type ProductSale = Infer<typeof productSaleSchema>;

/** The fields of a product `productSaleSchema` reads (what the page writes into `data-sale`), its stock as shoppers are told it. */
export function productSale(product: Product): ProductSale {
  const { id, name, image, price, stock, variants } = forShoppers(product);
  return {
    id,
    name,
    image,
    price,
    stock,
    variants: variants.map(({ id, label, price, stock, image }) => ({ id, label, price, stock, image })),
  };
}

/** A product's variant by id; a product without variants sells as the line variant ''. */
export function findVariant<V extends { id: string }>(product: { variants: readonly V[] }, variantId: string): V | undefined {
  return product.variants.find((v) => v.id === variantId);
}

/**
 * What one line of a product sells at: the chosen variant's price and stock, or the
 * product's own when it has no variants. Undefined for a variant it does not come in.
 */
export function sellingUnit(
  product: Pick<ProductSale, 'price' | 'stock' | 'image' | 'variants'>,
  variantId: string,
): { price: number; stock: number; image: string } | undefined {
  if (product.variants.length === 0) {
    return variantId === '' ? { price: product.price, stock: product.stock, image: product.image } : undefined;
  }
  const variant = findVariant(product, variantId);
  return variant && { price: variant.price, stock: variant.stock, image: variant.image ?? product.image };
}

/**
 * What the product page offers first: the variant the address names (?variant=) when the
 * product comes in it, else the first one in stock, else the first. '' without variants.
 */
export function initialVariant(product: Pick<ProductSale, 'variants'>, requested: string | null | undefined): string {
  const { variants } = product;
  if (variants.length === 0) return '';
  if (requested && variants.some((v) => v.id === requested)) return requested;
  return (variants.find((v) => isInStock(v.stock)) ?? variants[0])?.id ?? '';
}

/**
 * A variant as its menu offers it: its label, its price when the variants' prices differ (a page
 * read without JavaScript shows only the first one's price above the menu), and "sold out".
 */
export function variantOptionText(
  product: { variants: readonly { price: number }[] },
  variant: { label: string; price: number; stock: number },
): string {
  const pricesDiffer = product.variants.some((v) => v.price !== variant.price);
  const text = pricesDiffer ? `${variant.label} · ${formatNaira(variant.price)}` : variant.label;
  return isInStock(variant.stock) ? text : `${text} (sold out)`;
}

/**
 * The product page's Add to Cart as a screen reader names it: what it does, the product and the
 * variant chosen ("Add to Cart: Apple iPhone 17, 512GB"). Its visible text is the first part.
 */
export function addButtonName(productName: string, variantLabel: string | undefined, canBuy: boolean): string {
  return `${canBuy ? 'Add to Cart' : 'Out of stock'}: ${productName}${variantLabel ? `, ${variantLabel}` : ''}`;
}

/** What the page says of the units left. */
export function stockText(stock: number): string {
  if (!isInStock(stock)) return 'Out of stock';
  return stock <= LOW_STOCK ? `Only ${stock} left in stock` : 'In stock';
}

/** At or below this many, the page says "Only N left in stock". */
const LOW_STOCK = 5;

/** The stock line's look: plenty, a few left, none. */
export function stockClass(stock: number): 'muted' | 'stock-low' | 'stock-out' {
  if (!isInStock(stock)) return 'stock-out';
  return stock <= LOW_STOCK ? 'stock-low' : 'muted';
}

/**
 * What the product page says of mostPerOrder(): "Up to 5 per order", and beside "Only 3 left in
 * stock", when the share held for unpaid orders is what limits it, why: a shopper seeing 3 left
 * and "Up to 1" otherwise has no reason for it.
 */
export function perOrderText(stock: number): string {
  const most = Math.max(1, mostPerOrder(stock));
  return stock <= LOW_STOCK && most < Math.min(stock, MAX_LINE_QUANTITY)
    ? `Up to ${most} per order while so few are left`
    : `Up to ${most} per order`;
}

/**
 * A typed quantity as a whole number from 1 to `max`: "3" is 3; "" and "0" are 1; "2.5" is 2;
 * "12" is `max`. The note says why it changed, for the shopper to read at the field.
 */
export function parseQuantity(text: string, max: number): { quantity: number; note: string } {
  const trimmed = text.trim();
  const number = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(number))
    return { quantity: 1, note: trimmed === '' ? '' : 'Type a whole number of units' };
  const whole = Math.floor(number);
  if (whole < 1) return { quantity: 1, note: 'At least 1' };
  if (whole > max) return { quantity: max, note: `At most ${max} per order` };
  return { quantity: whole, note: whole === number ? '' : 'A whole number of units' };
}
