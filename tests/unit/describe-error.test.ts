import { describe, expect, it } from 'vitest';
import { describeError } from '../../functions/platform/errors.ts';

describe('describeError', () => {
  it("keeps a failed query's parameters (customer data) out of the log, but names the cause", () => {
    const cause = new Error('D1_ERROR: UNIQUE constraint failed: orders.number');
    const err = new Error('Failed query: insert into orders values (?, ?)\nparams: Ada Obi,12 Allen Avenue', { cause });
    const logged = describeError(err);
    expect(logged).not.toContain('Ada Obi');
    expect(logged).not.toContain('Allen Avenue');
    expect(logged).toContain('Failed query (its parameters are not logged)');
    expect(logged).toContain('UNIQUE constraint failed: orders.number');
  });

  it('describes a thrown non-error value', () => {
    expect(describeError('boom')).toBe('boom');
  });
});
