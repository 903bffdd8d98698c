import { isInStock, type Product } from './product.ts';

/**
 * What the product page offers first: the variant the address names (?variant=) when the
 * product comes in it, else the first one in stock, else the first. '' without variants.
 */
export function initialVariant(product: Pick<Product, 'variants'>, requested: string | null | undefined): string {
  const { variants } = product;
  if (variants.length === 0) return '';
  if (requested && variants.some((v) => v.id === requested)) return requested;
  return (variants.find((v) => isInStock(v.stock)) ?? variants[0])?.id ?? '';
}

/** What the page says of the units left. */
export function stockText(stock: number): string {
  if (!isInStock(stock)) return 'Out of stock';
  return stock <= 5 ? `Only ${stock} left in stock` : 'In stock';
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
