/**
 * The relevance set (issue 22, docs/decisions/022-search-that-understands.md): queries as shoppers
 * type them (typos, shorthand, old names, split and joined words, category words, the thing
 * itself first), each with what its first results must hold. tests/api/search-relevance.test.ts
 * asks the API for each and requires a share answered well of RELEVANCE_TARGET or more;
 * `npm run bench` (scripts/bench/scale.mjs) prints the share against the running server.
 * Plain data and one pure judge, so Node runs it without the test tools.
 */

export interface RelevanceCase {
  q: string;
  /** What the shopper is after, for the report. */
  why: string;
  /** The first result is one of these product ids. */
  first?: readonly string[];
  /** One of these product ids is among the first three. */
  top3?: readonly string[];
  /** The first `count` results are all in this category. */
  category?: { id: string; count: number };
  /** The first result is of this brand. */
  brand?: string;
}

/** The share of the set that must be answered well. */
export const RELEVANCE_TARGET = 0.9;

export const RELEVANCE_SET: readonly RelevanceCase[] = [
  // Typos: one edit from 5 letters, two from 9.
  { q: 'samsng galaxy', why: 'typo in the brand', first: ['samsung-galaxy-s25-ultra', 'samsung-galaxy-a56-5g'] },
  { q: 'iphnoe 17', why: 'swapped letters', first: ['apple-iphone-17', 'apple-iphone-17-pro-max'] },
  { q: 'ipone', why: 'missing letter', category: { id: 'phones', count: 2 } },
  { q: 'playstaton 5', why: 'typo in a long word', category: { id: 'consoles', count: 2 } },
  { q: 'macbok', why: 'missing letter', first: ['apple-macbook-air-13-m4', 'apple-macbook-pro-14-m5'] },
  { q: 'nintendo swich', why: 'missing letter', first: ['nintendo-switch-2'] },
  { q: 'infinx', why: 'missing letter in a brand', first: ['infinix-note-50-pro'] },
  { q: 'asassin creed', why: 'missing letter in a game', first: ['assassins-creed-shadows'] },
  { q: 'hisence tv', why: 'typo in a brand with a category word', first: ['hisense-55-a6-4k', 'hisense-32-a4-hd'] },
  { q: 'logitec mouse', why: 'missing letter in a brand', first: ['logitech-mx-master-3s'] },
  // Shorthand and old names (synonyms).
  { q: 'ps5', why: 'shorthand for the console', category: { id: 'consoles', count: 2 } },
  { q: 'playstation 5', why: 'the console by name', category: { id: 'consoles', count: 2 } },
  { q: 'gta 6', why: 'shorthand for Grand Theft Auto VI', first: ['grand-theft-auto-vi'] },
  { q: 'gta', why: 'shorthand', first: ['grand-theft-auto-vi'] },
  { q: 'grand theft auto 6', why: 'the game with a digit', first: ['grand-theft-auto-vi'] },
  { q: 'fifa', why: 'the old name of EA Sports FC', first: ['ea-sports-fc-26'] },
  { q: 'fifa 26', why: 'the old name and the year', first: ['ea-sports-fc-26'] },
  { q: 'cod', why: 'shorthand for Call of Duty', first: ['call-of-duty-black-ops-7'] },
  { q: 'zelda', why: 'the game by its hero', first: ['zelda-tears-of-the-kingdom-switch-2-edition'] },
  { q: 'ps5 controller', why: 'the controller, not the console', first: ['sony-dualsense-wireless-controller'] },
  { q: 'ssd', why: 'shorthand', first: ['sandisk-extreme-portable-ssd'] },
  { q: 'usb stick', why: 'another name for a flash drive', first: ['sandisk-ultra-dual-drive-luxe-usb-c'] },
  { q: 'earphones', why: 'another name for earbuds', top3: ['oraimo-freepods-4-anc-earbuds', 'apple-airpods-pro-3'] },
  {
    q: 'headphones',
    why: 'another name for a headset',
    top3: ['hyperx-cloud-iii-gaming-headset', 'corsair-hs80-max-wireless-headset'],
  },
  // Split and joined words.
  { q: 'play station', why: 'split brand name', category: { id: 'consoles', count: 2 } },
  { q: 'powerbank', why: 'joined words', first: ['oraimo-traveler-4-20000mah-power-bank'] },
  { q: 'power bank', why: 'as named', first: ['oraimo-traveler-4-20000mah-power-bank'] },
  { q: 'ear buds', why: 'split word', top3: ['oraimo-freepods-4-anc-earbuds'] },
  { q: 'air pods', why: 'split product name', first: ['apple-airpods-pro-3'] },
  { q: 'think pad', why: 'split product name', first: ['lenovo-thinkpad-e14-gen-6'] },
  { q: 'macbookpro', why: 'joined words', first: ['apple-macbook-pro-14-m5'] },
  { q: 'dual sense', why: 'split product name', first: ['sony-dualsense-wireless-controller'] },
  // Category words.
  { q: 'phones', why: 'the category', category: { id: 'phones', count: 9 } },
  { q: 'phone', why: 'the category, singular', category: { id: 'phones', count: 9 } },
  { q: 'smartphone', why: 'another name for the category', category: { id: 'phones', count: 9 } },
  { q: 'laptop', why: 'the category', category: { id: 'laptops', count: 9 } },
  { q: 'notebook', why: 'another name for laptops', category: { id: 'laptops', count: 9 } },
  { q: 'tv', why: 'the category', category: { id: 'tvs', count: 8 } },
  { q: 'television', why: 'the category by its long name', category: { id: 'tvs', count: 8 } },
  { q: 'consoles', why: 'the category', category: { id: 'consoles', count: 6 } },
  { q: 'video games', why: 'the category', category: { id: 'games', count: 8 } },
  { q: 'samsung phone', why: 'a brand in a category', first: ['samsung-galaxy-s25-ultra', 'samsung-galaxy-a56-5g'] },
  { q: 'samsung tv', why: 'a brand in a category', first: ['samsung-55-qled-q60d', 'samsung-75-crystal-uhd-du8000'] },
  { q: 'sony tv', why: 'a brand in a category', first: ['sony-55-bravia-7-mini-led'] },
  { q: 'gaming laptop', why: 'a kind of laptop', first: ['asus-tuf-gaming-a15'] },
  // The thing itself first.
  { q: 'iphone 17', why: 'the phone named, not the Pro Max', first: ['apple-iphone-17'] },
  { q: 'iphone', why: 'iPhones before what mentions them', category: { id: 'phones', count: 2 } },
  { q: 'xbox series x', why: 'the console', first: ['microsoft-xbox-series-x'] },
  { q: 'xbox controller', why: 'the controller', first: ['microsoft-xbox-wireless-controller'] },
  { q: 'nintendo switch', why: 'the console before its games', first: ['nintendo-switch-2'] },
  { q: 'macbook air', why: 'the laptop', first: ['apple-macbook-air-13-m4'] },
  { q: 'galaxy s25', why: 'the phone', first: ['samsung-galaxy-s25-ultra'] },
  { q: 'pixel', why: 'the phone', first: ['google-pixel-10-pro'] },
  { q: 'airpods', why: 'the earbuds', first: ['apple-airpods-pro-3'] },
  { q: 'steam deck', why: 'the handheld', first: ['valve-steam-deck-oled'] },
  { q: 'ghost of yotei', why: 'the game', first: ['ghost-of-yotei'] },
  { q: 'mario kart', why: 'the game', first: ['mario-kart-world'] },
  { q: 'jbl speaker', why: 'the speaker', first: ['jbl-flip-7'] },
  { q: 'gaming headset', why: 'a headset', top3: ['hyperx-cloud-iii-gaming-headset', 'corsair-hs80-max-wireless-headset'] },
  { q: 'samsung', why: 'the brand', brand: 'Samsung' },
];

/** Whether an answer's first results (ids, categories and brands in order) hold what the case asks. */
export function answeredWell(c: RelevanceCase, items: readonly { id: string; category: string; brand: string }[]): boolean {
  const [head] = items;
  if (!head) return false;
  if (c.first && !c.first.includes(head.id)) return false;
  if (c.top3 && !items.slice(0, 3).some((p) => c.top3!.includes(p.id))) return false;
  if (c.category) {
    const { id, count } = c.category;
    if (items.length < count || !items.slice(0, count).every((p) => p.category === id)) return false;
  }
  if (c.brand && head.brand !== c.brand) return false;
  return true;
}
