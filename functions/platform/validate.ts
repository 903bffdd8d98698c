import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { z } from 'zod';
import { invalidRequest } from './errors.ts';

/**
 * @hono/zod-validator with the API's error shape: a failure becomes a 400 whose
 * issues name each field.
 */
export function validate<T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw invalidRequest(result.error, target === 'query' ? 'query' : 'request');
  });
}
