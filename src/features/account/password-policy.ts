import { z } from 'zod';
import { isCommonPassword, PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES, PASSWORD_MIN_LENGTH } from './password-rules.ts';

/**
 * The password policy as zod schemas, for the Worker and the islands; its rules and words are
 * password-rules.ts (no zod), which this module re-exports.
 */
export {
  COMMON_PASSWORDS,
  isCommonPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MESSAGES,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RULES,
} from './password-rules.ts';

/** A new password (sign-up, reset, change). */
export const newPasswordSchema = z
  .string({ error: PASSWORD_MESSAGES.missingNew })
  .min(PASSWORD_MIN_LENGTH, PASSWORD_MESSAGES.short)
  .max(PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES.long)
  .refine((password) => !isCommonPassword(password), { message: PASSWORD_MESSAGES.common });

/** A password typed to sign in or to confirm a change: only its presence is checked (the policy may have changed since). */
export const currentPasswordSchema = z
  .string({ error: PASSWORD_MESSAGES.missingCurrent })
  .min(1, PASSWORD_MESSAGES.missingCurrent)
  .max(PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES.long);
