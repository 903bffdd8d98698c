import {
  MAX_ORDER_LINES,
  MAX_UNITS_PER_PRODUCT,
  orderLimitIssues,
  type OrderLimits,
} from '../../src/features/orders/checkout.ts';
import type { Config } from '../env.ts';
import { ApiError } from '../lib/errors.ts';

/**
 * The per-order limits the Worker enforces: min(config, shared default). The shared
 * schema (src/features/orders/checkout.ts) has already refused anything above the
 * defaults, which is what the browser knows and says first; the vars
 * MAX_UNITS_PER_PRODUCT and MAX_ORDER_LINES can only tighten them (a higher value
 * would be refused by the schema before it mattered).
 */
export function orderLimits(config: Config): OrderLimits {
  return {
    maxUnitsPerProduct: Math.min(config.MAX_UNITS_PER_PRODUCT, MAX_UNITS_PER_PRODUCT),
    maxLines: Math.min(config.MAX_ORDER_LINES, MAX_ORDER_LINES),
  };
}

/** Refuses lines past the configured limits: 400 naming `lines` or `lines.N.quantity`, as the schema would. */
export function enforceOrderLimits(config: Config, lines: Parameters<typeof orderLimitIssues>[0]): void {
  const issues = orderLimitIssues(lines, orderLimits(config)).map((i) => ({
    field: ['lines', ...i.path].join('.'),
    message: i.message,
  }));
  if (issues.length) {
    throw new ApiError(
      400,
      'invalid_request',
      `The request is not valid: check ${issues.map((i) => i.field).join(', ')}.`,
      issues,
    );
  }
}
