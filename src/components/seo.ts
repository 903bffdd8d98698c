/** What every page tells search engines and link previews (see Seo.astro). */
export interface SeoProps {
  title: string;
  description: string;
  /** A local image path for the link preview. */
  image?: string;
  type?: 'website' | 'product';
  noindex?: boolean;
  jsonLd?: Record<string, unknown>;
  /** The page's canonical path and query (a listing's: /products?category=laptops); by default its path alone. */
  canonical?: string;
}

/**
 * A page's path as the store serves it, from the path Astro builds it at: `/about.html` is
 * served (and linked) as `/about`, and the home page `/index.html` as `/` (build.format 'file').
 */
export function servedPath(pathname: string): string {
  const path = pathname.replace(/\.html$/, '');
  return path === '/index' || path === '' ? '/' : path;
}
