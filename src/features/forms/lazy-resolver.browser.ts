import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A react-hook-form resolver whose zod schema (full zod) and zodResolver load on first use,
 * not with the page. If they cannot load (the connection dropped), the values go on as they
 * are and the request that follows says what went wrong. `load` starts the loading early
 * (when the shopper is on the form).
 */
export function lazyZodResolver<T extends FieldValues>(schema: () => Promise<z.ZodType<unknown, T>>) {
  const load = () =>
    Promise.all([import('@hookform/resolvers/zod'), schema()]).then(
      ([{ zodResolver }, loaded]) => zodResolver(loaded as z.ZodType<T, T>) as unknown as Resolver<T>,
    );
  const resolver: Resolver<T> = async (values, context, options) => {
    const resolve = await load().catch(() => null);
    return resolve ? resolve(values, context, options) : { values, errors: {} };
  };
  return { resolver, load };
}
