import { useEffect, useState } from 'react';

/**
 * False while the island renders on the server and hydrates (so hydration matches the HTML),
 * true from the first effect on. Controls that work without JavaScript as links or form
 * fields (Load More, Filters, a chip) become buttons from then on, in the same place and size.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
