import { describe, expect, it } from 'vitest';
import { newPasswordSchema } from './password-policy.ts';

describe('password policy', () => {
  it('takes 8+ characters that are not a common password', () => {
    expect(newPasswordSchema.safeParse('correct horse battery').success).toBe(true);
    expect(newPasswordSchema.safeParse('Nk7#pq2v').success).toBe(true);
  });
  it('refuses short, common and repeated passwords', () => {
    for (const password of [
      'short',
      'password',
      'PASSWORD1',
      'Password123!',
      '12345678',
      'aaaaaaaaa',
      'qwerty2024',
      'x'.repeat(129),
    ]) {
      expect(newPasswordSchema.safeParse(password).success, password).toBe(false);
    }
  });
});
