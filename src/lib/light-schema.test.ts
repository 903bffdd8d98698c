import { describe, expect, it } from 'vitest';
import { array, boolean, int, nullable, object, oneOf, optional, orElse, string, tuple, withDefault } from './light-schema.ts';

describe('light checks (the plain scripts read answers with these instead of zod)', () => {
  const user = object({
    id: string({ min: 1 }),
    name: nullable(string()),
    role: oneOf(['customer', 'admin'] as const),
    ok: boolean(),
  });

  it('read what they describe and drop what they do not, as zod objects do', () => {
    expect(user.parse({ id: 'u1', name: null, role: 'admin', ok: true, extra: 'dropped' })).toEqual({
      id: 'u1',
      name: null,
      role: 'admin',
      ok: true,
    });
  });

  it('refuse a wrong type, a value outside a set, a short string, naming where', () => {
    const cases: [unknown, string][] = [
      [{ id: 'u1', name: 3, role: 'admin', ok: true }, 'name'],
      [{ id: 'u1', name: null, role: 'root', ok: true }, 'role'],
      [{ id: '', name: null, role: 'admin', ok: true }, 'id'],
      [{ id: 'u1', name: null, role: 'admin' }, 'ok'],
    ];
    for (const [value, field] of cases) {
      const read = user.safeParse(value);
      expect(read.success, field).toBe(false);
      expect(read.error?.issues[0]?.path).toEqual([field]);
    }
    expect(() => user.parse(null)).toThrow('Expected an object');
    expect(user.safeParse([]).success).toBe(false);
  });

  it('optional fields may be absent (and stay absent), defaults fill in, orElse never throws', () => {
    const body = object({ code: string(), issues: optional(array(object({ field: string() }))) });
    expect(body.parse({ code: 'x' })).toEqual({ code: 'x' });
    expect(Object.keys(body.parse({ code: 'x' }))).toEqual(['code']);
    expect(body.parse({ code: 'x', issues: [{ field: 'email' }] })).toEqual({ code: 'x', issues: [{ field: 'email' }] });
    expect(body.safeParse({ code: 'x', issues: [{ field: 1 }] }).error?.issues[0]?.path).toEqual(['issues', 0, 'field']);
    expect(object({ variant: withDefault(string(), '') }).parse({})).toEqual({ variant: '' });
    expect(orElse(array(int()), []).parse('not a list')).toEqual([]);
  });

  it('whole numbers within bounds, tuples of the exact length', () => {
    expect(int({ min: 1, max: 5 }).safeParse(5).success).toBe(true);
    for (const bad of [0, 6, 2.5, '3', Number.NaN])
      expect(int({ min: 1, max: 5 }).safeParse(bad).success, String(bad)).toBe(false);
    const pair = tuple([string(), int()]);
    expect(pair.parse(['a', 1])).toEqual(['a', 1]);
    expect(pair.safeParse(['a']).success).toBe(false);
    expect(pair.safeParse(['a', 1, 2]).success).toBe(false);
  });

  it('are Standard Schemas: validate() answers a value or issues', () => {
    expect(user['~standard'].validate({ id: 'u1', name: 'Ada', role: 'customer', ok: false })).toEqual({
      value: { id: 'u1', name: 'Ada', role: 'customer', ok: false },
    });
    expect(user['~standard'].validate({})).toMatchObject({ issues: [{ path: ['id'] }] });
    expect(user['~standard'].vendor).toBe('gts-light');
  });
});
