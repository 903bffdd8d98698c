import { type SQL, sql } from 'drizzle-orm';
import type { D1Queries } from '../platform/d1-session.ts';
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import { forShoppers, isInStock, type Product } from '../../src/features/catalogue/product.ts';
import {
  DEFAULT_QUERY,
  facetsFrom,
  PAGE_SIZE,
  type ProductPage,
  type ProductQuery,
  pageOf,
  searchTerms,
  sortBrands,
} from '../../src/features/catalogue/search.ts';
import { nairaToKobo } from '../../src/lib/money.ts';
import { storeReviews } from './products.ts';
import { products } from '../platform/schema.ts';
import { namedByAll, planQuery, type QueryPlan, type Slot, shorterQueries, suggestQuery } from './query-plan.ts';
import { parseVariants, VARIANTS_JSON } from './variants.ts';
import { catalogueVocabulary } from './vocabulary.ts';

/**
 * GET /api/products in D1: the same answer as `searchProducts`, the pure reference the tests
 * hold it to (tests/api/product-search.test.ts; nothing else calls it), worked out by SQL
 * that reads rows in proportion to what the query matches, not to the catalogue
 * (docs/decisions/012-search-in-d1-with-fts5.md):
 *   - text through the FTS5 table `products_fts` (migrations/0006_product_search.sql), as the
 *     query's plan says (query-plan.ts: typed words as prefixes, synonyms, typos, split and joined
 *     words, category words; decision 022), every word quoted, so nothing the shopper types is FTS syntax;
 *   - one grouped query gives the total and the facets; one gives the brand list;
 *   - filters without text use the index named for their shape (INDEXED BY: a statement
 *     whose index no longer fits fails loudly instead of scanning the table).
 * The three statements go to D1 as one batch (one round trip); `rowsRead` is D1's count.
 */

/** The products' columns as the API returns them. */
const COLUMNS = sql.join(
  [
    sql.raw(
      'products.id, products.name, products.brand, products.category, products.description, products.price_kobo, products.image, products.variant_label, products.stock, products.rating, products.reviews, products.catalogue_reviews, products.featured',
    ),
    sql`${VARIANTS_JSON} AS variants`,
  ],
  sql`, `,
);

interface Row {
  id: string;
  name: string;
  brand: string;
  category: string;
  description: string;
  price_kobo: number;
  image: string;
  variant_label: string;
  variants: string;
  stock: number;
  rating: number;
  reviews: number;
  catalogue_reviews: number;
  featured: number;
}

/** A result as shoppers see it (the listing and GET /api/products): stock up to SHOPPER_STOCK_CAP. */
function toProduct(r: Row): Product {
  return forShoppers({
    id: r.id,
    name: r.name,
    brand: r.brand,
    category: r.category,
    description: r.description,
    price: r.price_kobo,
    image: r.image,
    variantLabel: r.variant_label,
    variants: parseVariants(r.variants),
    stock: r.stock,
    inStock: isInStock(r.stock),
    rating: r.rating,
    reviews: r.reviews,
    ...storeReviews(r.reviews, r.catalogue_reviews),
    featured: r.featured === 1,
  });
}

/**
 * FTS5 query text for slots of a plan: every slot must match, by any of its alternatives, an
 * alternative by all its terms; each word quoted (it holds only letters and digits), a typed word
 * as a prefix. `columns` limits it to those columns (the relevance tiers).
 */
function ftsMatch(slots: readonly Slot[], columns?: string): string {
  const all = slots
    .map(
      (slot) =>
        `(${slot.alternatives
          .map((a) => `(${a.terms.map((t) => `"${t.word.replaceAll('"', '')}"${t.prefix ? '*' : ''}`).join(' AND ')})`)
          .join(' OR ')})`,
    )
    .join(' AND ');
  return columns ? `${columns} : (${all})` : all;
}

const list = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/** The index a filter-only query is read through (see the decision record for each plan). */
type IndexName =
  | 'products_category_idx'
  | 'products_category_name_idx'
  | 'products_category_price_idx'
  | 'products_category_rating_idx'
  | 'products_brand_idx'
  | 'products_brand_name_idx'
  | 'products_category_relevance_idx'
  | 'products_price_idx'
  | 'products_featured_idx'
  | 'products_name_idx'
  | 'products_rating_idx';

/**
 * The relevance order among products equally placed (decision 022): the name with fewest other
 * words (its spaces), then rating, then in stock. `products_category_relevance_idx` holds these
 * expressions as written here, so a category word's page is read in this order (migration 0016).
 */
const IN_ITS_CATEGORY =
  "length(products.name) - length(replace(products.name, ' ', '')), products.rating DESC, products.stock > 0 DESC, products.name COLLATE NOCASE, products.id";

/** Each sort's ORDER BY, over `products`. */
const ORDER_TEXT: Record<ProductQuery['sort'], string> = {
  name: 'products.name COLLATE NOCASE, products.id',
  'price-asc': 'products.price_kobo, products.name COLLATE NOCASE, products.id',
  'price-desc': 'products.price_kobo DESC, products.name COLLATE NOCASE, products.id',
  rating: 'products.rating DESC, products.reviews DESC, products.name COLLATE NOCASE, products.id',
  // The thing itself first (decision 022): the named category, then where the words are (name,
  // brand, description), then the name with fewest other words (spaces), then rating, then in stock.
  relevance: `named, tier, ${IN_ITS_CATEGORY}`,
};
const ORDER = (sort: ProductQuery['sort']) => sql.raw(ORDER_TEXT[sort]);
/** The same over a statement's result columns (a union of two reads, each in this order). */
const RESULT_ORDER = (sort: ProductQuery['sort']) => sql.raw(ORDER_TEXT[sort].replaceAll('products.', ''));

/** The index that serves a sort's order, for a listing with no narrowing filter. */
const SORT_INDEX: Record<ProductQuery['sort'], IndexName> = {
  name: 'products_name_idx',
  relevance: 'products_name_idx',
  'price-asc': 'products_price_idx',
  'price-desc': 'products_price_idx',
  rating: 'products_rating_idx',
};

/** The same within categories (a category page is read in order, a page at a time). */
const CATEGORY_SORT_INDEX: Record<ProductQuery['sort'], IndexName> = {
  name: 'products_category_name_idx',
  relevance: 'products_category_name_idx',
  'price-asc': 'products_category_price_idx',
  'price-desc': 'products_category_price_idx',
  rating: 'products_category_rating_idx',
};

/**
 * How many pages the answer holds from `query.page` on: 1 for the API; the server-rendered
 * listing (/products?page=3 shows pages 1-3, src/features/catalogue/listing.server.ts) reads
 * them in one statement. Totals, facets and brands do not depend on it.
 */
export interface PageSpan {
  pages?: number;
}

export interface ProductSearchStatements {
  page: SQL;
  groups: SQL;
  brands: SQL;
}

/** The plan of a query without search words: no text filter. */
export const NO_TEXT: QueryPlan = { slots: [], categories: [] };

/**
 * The three statements for a query and the plan of its words (exported so tests can EXPLAIN
 * QUERY PLAN each shape): `page` (the page's products), `groups` (matching products per
 * category and brand: total and facets) and `brands` (brands matching everything but the brand
 * and price filters).
 */
export function productSearchStatements(
  query: ProductQuery,
  plan: QueryPlan,
  { pages = 1 }: PageSpan = {},
): ProductSearchStatements {
  const minKobo = nairaToKobo(query.minPrice);
  const maxKobo = nairaToKobo(query.maxPrice);
  const offset = (query.page - 1) * PAGE_SIZE;
  const limit = PAGE_SIZE * pages;

  // Filters as literal SQL where they are flags (a partial index is only used for literal terms).
  const featured = query.featured === undefined ? sql`` : sql.raw(` AND products.featured = ${query.featured ? 1 : 0}`);
  const category = query.category.length ? sql` AND ${products.category} IN (${list(query.category)})` : sql``;
  const brand = query.brand.length ? sql` AND ${products.brand} IN (${list(query.brand)})` : sql``;
  const price = sql` AND ${products.price} BETWEEN ${minKobo} AND ${maxKobo}`;
  const scope = sql`products.active = 1${featured}${category}`;
  const matching = sql`${scope}${brand}${price}`;
  const defaultPrice = query.minPrice === DEFAULT_QUERY.minPrice && query.maxPrice === DEFAULT_QUERY.maxPrice;
  const indexed = (index: IndexName) => sql.raw(`products INDEXED BY ${index}`);

  // The counts kept per category and brand, inside or outside the default price range
  // (product_facets, migration 0016): the same filters over its rows, for counts without a price
  // band or words, one row per category and brand. The brand list ignores the brand and price filters.
  const facetCount = sql.raw(
    query.featured === undefined ? 'products' : query.featured ? 'featured_products' : 'products - featured_products',
  );
  const facetFilters = (forCounts: boolean, categories: readonly string[]) =>
    sql.join(
      [
        sql.raw(forCounts ? 'in_price_range = 1' : 'in_price_range IN (0, 1)'),
        sql`${facetCount} > 0`,
        ...(query.category.length ? [sql`category IN (${list(query.category)})`] : []),
        ...(categories.length ? [sql`category IN (${list(categories)})`] : []),
        ...(forCounts && query.brand.length ? [sql`brand IN (${list(query.brand)})`] : []),
      ],
      sql` AND `,
    );
  const facetGroups = (categories: readonly string[] = []) =>
    sql`SELECT category, brand, sum(${facetCount}) AS n FROM product_facets WHERE ${facetFilters(true, categories)} GROUP BY category, brand`;
  const facetBrands = (categories: readonly string[] = []) =>
    sql`SELECT DISTINCT brand FROM product_facets WHERE ${facetFilters(false, categories)}`;

  if (plan.slots.length) {
    const textSlots = plan.slots.filter((slot) => slot.categories.length === 0);
    const categorySlots = plan.slots.filter((slot) => slot.categories.length > 0);
    const inFts = (expression: string) =>
      sql`products.rowid IN (SELECT rowid FROM products_fts WHERE products_fts MATCH ${expression})`;
    // A slot naming a category: its category's products, or its words (the set is read once per statement).
    const inSlot = (slot: Slot, columns?: string) =>
      sql`(products.category IN (${list(slot.categories)}) OR ${inFts(ftsMatch([slot], columns))})`;
    const all = (conditions: SQL[]) => sql.join(conditions, sql` AND `);
    // Where the words are: 0 when every slot is met in the name (or by the category), 1 in the name or brand, else 2.
    const level = (columns: string) =>
      all([
        ...(textSlots.length ? [inFts(ftsMatch(textSlots, columns))] : []),
        ...categorySlots.map((slot) => inSlot(slot, columns)),
      ]);
    const named = plan.categories.length
      ? sql`CASE WHEN products.category IN (${list(plan.categories)}) THEN 0 ELSE 1 END`
      : sql`0`;
    const rank =
      query.sort === 'relevance'
        ? sql`, ${named} AS named, CASE WHEN ${level('name')} THEN 0 WHEN ${level('{name brand}')} THEN 1 ELSE 2 END AS tier`
        : sql``;

    if (!textSlots.length && categorySlots.length === 1) {
      // One category word (`phones`, `tv`): its category's products and, apart from them, its
      // words' matches. The category is read through an index in the page's order, a page at a
      // time (for relevance its products all rank first, by IN_ITS_CATEGORY); the text matches
      // are few; the page is the first of the two, merged. Counts without a price band come from
      // product_facets, so nothing reads the category row by row (decision 022).
      const [slot] = categorySlots as [Slot];
      const inCategory = sql`products.category IN (${list(slot.categories)})`;
      const categoryIndex: IndexName =
        query.sort === 'relevance' ? 'products_category_relevance_idx' : CATEGORY_SORT_INDEX[query.sort];
      const textHits = sql`products_fts CROSS JOIN products ON products.rowid = products_fts.rowid WHERE products_fts MATCH ${ftsMatch([slot])} AND NOT ${inCategory}`;
      const categoryRank = query.sort === 'relevance' ? sql`, 0 AS named, 0 AS tier` : sql``;
      const categoryOrder = query.sort === 'relevance' ? sql.raw(IN_ITS_CATEGORY) : ORDER(query.sort);
      const upTo = offset + limit;
      return {
        page: sql`SELECT * FROM (SELECT * FROM (SELECT ${COLUMNS}${categoryRank} FROM ${indexed(categoryIndex)} WHERE ${inCategory} AND ${matching} ORDER BY ${categoryOrder} LIMIT ${upTo})
          UNION ALL SELECT * FROM (SELECT ${COLUMNS}${rank} FROM ${textHits} AND ${matching} ORDER BY ${ORDER(query.sort)} LIMIT ${upTo}))
          ORDER BY ${RESULT_ORDER(query.sort)} LIMIT ${limit} OFFSET ${offset}`,
        groups: sql`SELECT category, brand, sum(n) AS n FROM (${
          defaultPrice
            ? facetGroups(slot.categories)
            : sql`SELECT products.category, products.brand, count(*) AS n FROM ${indexed('products_category_idx')} WHERE ${inCategory} AND ${matching} GROUP BY products.category, products.brand`
        } UNION ALL SELECT products.category, products.brand, count(*) AS n FROM ${textHits} AND ${matching} GROUP BY products.category, products.brand) GROUP BY category, brand`,
        brands: sql`${facetBrands(slot.categories)} UNION SELECT products.brand FROM ${textHits} AND ${scope}`,
      };
    }

    let from: SQL;
    let match: SQL;
    if (textSlots.length) {
      // The FTS table drives (CROSS JOIN keeps it the outer loop): rows read follow the text matches.
      from = sql`products_fts CROSS JOIN products ON products.rowid = products_fts.rowid`;
      match = all([sql`products_fts MATCH ${ftsMatch(textSlots)}`, ...categorySlots.map((slot) => inSlot(slot))]);
    } else {
      // Only category words, two or more: the first one's category (read through its index) and
      // its text matches drive (CROSS JOIN keeps them the outer loop, each product read by its rowid).
      const [first, ...rest] = categorySlots as [Slot, ...Slot[]];
      from = sql`(SELECT rowid AS hit FROM ${indexed('products_category_idx')} WHERE active = 1 AND category IN (${list(first.categories)})
          UNION SELECT rowid FROM products_fts WHERE products_fts MATCH ${ftsMatch([first])}) AS hits CROSS JOIN products ON products.rowid = hits.hit`;
      match = all([sql`1`, ...rest.map((slot) => inSlot(slot))]);
    }
    return {
      page: sql`SELECT ${COLUMNS}${rank} FROM ${from} WHERE ${match} AND ${matching} ORDER BY ${ORDER(query.sort)} LIMIT ${limit} OFFSET ${offset}`,
      groups: sql`SELECT products.category, products.brand, count(*) AS n FROM ${from} WHERE ${match} AND ${matching} GROUP BY products.category, products.brand`,
      brands: sql`SELECT DISTINCT products.brand FROM ${from} WHERE ${match} AND ${scope}`,
    };
  }

  // No text: the page reads through the index that fits the query's filters (and its order when
  // no narrower filter comes first), so rows read follow the page; counts and brands without a
  // price band read product_facets, with one they read a covering index, one entry per match.
  const featuredOnly = query.featured === true;
  const categories = query.category.length > 0;
  const byName = query.sort === 'name' || query.sort === 'relevance';
  const pageIndex: IndexName = featuredOnly
    ? 'products_featured_idx'
    : categories
      ? query.brand.length
        ? 'products_category_idx'
        : defaultPrice
          ? CATEGORY_SORT_INDEX[query.sort]
          : 'products_category_price_idx'
      : query.brand.length
        ? byName
          ? 'products_brand_name_idx'
          : 'products_brand_idx'
        : defaultPrice
          ? SORT_INDEX[query.sort]
          : 'products_price_idx';
  const groupsIndex: IndexName = featuredOnly
    ? 'products_featured_idx'
    : categories
      ? 'products_category_idx'
      : query.brand.length
        ? 'products_brand_idx'
        : 'products_price_idx';
  const order = ORDER(query.sort === 'relevance' ? 'name' : query.sort);
  let brands: SQL;
  if (featuredOnly || query.category.length > 1) {
    brands = facetBrands();
  } else {
    // The brands on sale (in one category, or in all): one index seek per brand instead of one
    // entry per product or facet (SQLite's skip-scan, spelled out as a recursive query).
    const index = categories ? 'products_category_idx' : 'products_brand_idx';
    const next = (after: SQL) => sql`(SELECT min(products.brand) FROM ${indexed(index)} WHERE ${scope}${after})`;
    brands = sql`WITH RECURSIVE b(brand) AS (SELECT ${next(sql``)} UNION ALL SELECT ${next(sql` AND products.brand > b.brand`)} FROM b WHERE b.brand IS NOT NULL)
      SELECT brand FROM b WHERE brand IS NOT NULL`;
  }
  return {
    page: sql`SELECT ${COLUMNS} FROM ${indexed(pageIndex)} WHERE ${matching} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
    groups: defaultPrice
      ? facetGroups()
      : sql`SELECT products.category, products.brand, count(*) AS n FROM ${indexed(groupsIndex)} WHERE ${matching} GROUP BY products.category, products.brand`,
    brands,
  };
}

const dialect = new SQLiteAsyncDialect();

/** A drizzle `sql` statement as a D1 prepared statement. */
export function prepare(d1: D1Queries, statement: SQL): D1PreparedStatement {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return d1.prepare(text).bind(...params);
}

/**
 * One page of the listing for a query, from D1, and how many rows D1 read for it. The query's
 * words are planned against the catalogue's vocabulary (read once per isolate, vocabulary.ts).
 * When nothing matches, `didYouMean` is the query with its unmatched words replaced by the
 * nearest catalogue words, or else the query without one of its words (shorterQueries()),
 * offered only if that query finds products (one more batch of counts).
 */
export async function searchProductsInD1(
  d1: D1Queries,
  query: ProductQuery,
  span: PageSpan = {},
): Promise<{ page: ProductPage; rowsRead: number }> {
  const terms = searchTerms(query.q);
  const vocabulary = terms.length ? await catalogueVocabulary(d1) : undefined;
  const plan = vocabulary ? planQuery(terms, vocabulary) : NO_TEXT;
  const statements = productSearchStatements(query, plan, span);
  const [page, groups, brands] = await d1.batch<unknown>([
    prepare(d1, statements.page),
    // Counts and brands as one row of JSON each, not a row per category and brand: D1 hands the
    // Worker each row on its own, and at 100,000 products that, not the reading, was the cost.
    prepare(d1, sql`SELECT json_group_array(json_array(category, brand, n)) AS g FROM (${statements.groups})`),
    prepare(d1, sql`SELECT json_group_array(brand) AS b FROM (${statements.brands})`),
  ]);
  const groupRows = (JSON.parse((groups!.results[0] as { g: string }).g) as [string, string, number][]).map(
    ([category, brand, count]) => ({ category, brand, count }),
  );
  const total = groupRows.reduce((sum, g) => sum + g.count, 0);
  let rowsRead = [page, groups, brands].reduce((sum, r) => sum + (r?.meta.rows_read ?? 0), 0);
  let didYouMean: string | undefined;
  if (total === 0 && vocabulary) {
    // The words corrected first; else the query without one of its words. Each candidate is one
    // LIMIT 1 count, all in one batch; the first in order that finds something is offered.
    // The words corrected first; else the query without one of its words. Each candidate's best
    // match is read (all in one batch): the first whose best match is named by all its words is
    // offered, else the first that finds anything.
    const corrected = suggestQuery(plan, vocabulary);
    const candidates = corrected ? [corrected] : shorterQueries(plan);
    if (candidates.length) {
      const found = await d1.batch<unknown>(
        candidates.map((q) =>
          prepare(
            d1,
            sql`SELECT * FROM (${productSearchStatements(candidateQuery(query, q), planQuery(searchTerms(q), vocabulary)).page}) LIMIT 1`,
          ),
        ),
      );
      rowsRead += found.reduce((sum, r) => sum + (r.meta.rows_read ?? 0), 0);
      const best = candidates.map((q, i) => ({ q, top: (found[i]!.results as Row[])[0] }));
      didYouMean = (best.find((c) => c.top && namedByAll(c.q, c.top)) ?? best.find((c) => c.top))?.q;
    }
  }
  return {
    page: {
      ...pageOf(
        (page!.results as Row[]).map(toProduct),
        total,
        query,
        sortBrands(JSON.parse((brands!.results[0] as { b: string }).b) as string[]),
        facetsFrom(groupRows),
      ),
      ...(didYouMean ? { didYouMean } : {}),
    },
    rowsRead,
  };
}

/** A shorter or corrected query as it is tried: the same filters, its first page by best match. */
function candidateQuery(query: ProductQuery, q: string): ProductQuery {
  return { ...query, q, page: 1, sort: 'relevance' };
}

/**
 * The categories with products on sale, for the listing's filter panel (rendered by the Worker):
 * from the counts kept per category and brand (product_facets), one row per facet, not one per product.
 */
export async function categoriesOnSale(d1: D1Queries): Promise<string[]> {
  const { results } = await d1
    .prepare('SELECT DISTINCT category FROM product_facets WHERE products > 0 ORDER BY category')
    .all<{ category: string }>();
  return results.map((r) => r.category);
}

/** A brand on sale, for /brands: how many of its products are on sale, and in which categories. */
export interface BrandOnSale {
  brand: string;
  products: number;
  categories: string[];
}

/**
 * The brands with products on sale, most products first, then by name, for /brands (rendered by
 * the Worker, so an admin's new product, brand or archive shows there as it does in the
 * listing): from the counts kept per category and brand (product_facets), one row per facet.
 */
export async function brandsOnSale(d1: D1Queries): Promise<BrandOnSale[]> {
  const { results } = await d1
    .prepare('SELECT brand, category, sum(products) AS products FROM product_facets WHERE products > 0 GROUP BY brand, category')
    .all<{ brand: string; category: string; products: number }>();
  const brands = new Map<string, BrandOnSale>();
  for (const row of results) {
    const brand = brands.get(row.brand) ?? { brand: row.brand, products: 0, categories: [] };
    brand.products += row.products;
    brand.categories.push(row.category);
    brands.set(row.brand, brand);
  }
  return [...brands.values()].sort((a, b) => b.products - a.products || a.brand.localeCompare(b.brand));
}
