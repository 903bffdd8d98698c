/**
 * Category ids from the specification (section 3). The first six are the store's
 * departments (header, mobile menu, admin form); the rest are accepted by the
 * catalogue and filters so the catalogue can grow without a code change.
 */
export const CATEGORIES = [
  { id: 'phones', label: 'Phones' },
  { id: 'laptops', label: 'Laptops' },
  { id: 'tvs', label: 'TVs' },
  { id: 'consoles', label: 'Consoles' },
  { id: 'accessories', label: 'Accessories' },
  { id: 'games', label: 'Video Games' },
  { id: 'smartwatches', label: 'Smartwatches' },
  { id: 'cameras', label: 'Cameras' },
  { id: 'audio', label: 'Audio' },
  { id: 'networking', label: 'Networking' },
  { id: 'storage', label: 'Storage' },
  { id: 'gaming', label: 'Gaming Gear' },
  { id: 'drones', label: 'Drones' },
  { id: 'smart-home', label: 'Smart Home' },
  { id: 'wearables', label: 'Wearables' },
] as const;

export type CategoryId = (typeof CATEGORIES)[number]['id'];

export const CATEGORY_IDS = CATEGORIES.map((c) => c.id) as [CategoryId, ...CategoryId[]];

/** The six shortcuts of the mobile menu (spec section 2). */
export const DEPARTMENTS: readonly CategoryId[] = ['phones', 'laptops', 'tvs', 'consoles', 'accessories', 'games'];

/** The five tiles of the home page (spec section 2). */
export const HOME_TILES: readonly CategoryId[] = ['phones', 'laptops', 'accessories', 'gaming', 'consoles'];

export function categoryLabel(id: string): string {
  return CATEGORIES.find((c) => c.id === id)?.label ?? id;
}
