/**
 * The password policy's rules, without zod (password-policy.ts makes them the schemas the
 * Worker and the islands check with; the login page's plain script checks with these), shown
 * to the user and checked the same way in the browser (field messages) and the Worker (400
 * naming the field): at least 8 characters, at most 128,
 * and not one of the passwords people use most (checked case-insensitively, and also
 * with trailing digits and punctuation removed, so "Password123!" is refused too).
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** What the form shows under the password field. */
export const PASSWORD_RULES = `At least ${PASSWORD_MIN_LENGTH} characters, and not a commonly used password.`;

/** Among the most used passwords in published breach lists (lower-case). */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '12345678',
  '123456789',
  '1234567890',
  '12345678910',
  '11111111',
  '00000000',
  '88888888',
  '87654321',
  '123123123',
  '12341234',
  '11223344',
  '1q2w3e4r',
  '1q2w3e4r5t',
  '1qaz2wsx',
  'qwertyuiop',
  'qwerty123',
  'qwertyui',
  'asdfghjkl',
  'asdfasdf',
  'zxcvbnm1',
  'password',
  'password1',
  'password12',
  'password123',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword',
  'iloveyou',
  'iloveyou1',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'welcome1',
  'welcome123',
  'abc12345',
  'abcd1234',
  'abcdefgh',
  'letmein1',
  'trustno1',
  'superman',
  'batman123',
  'starwars',
  'whatever',
  'dragon123',
  'monkey123',
  'master123',
  'michael1',
  'jennifer',
  'jordan23',
  'computer',
  'internet',
  'samsung1',
  'iphone12',
  'changeme',
  'administrator',
  'admin123',
  'admin1234',
  'qwerty12',
  'q1w2e3r4',
  'q1w2e3r4t5',
  'zaq12wsx',
  'aa123456',
  'a1b2c3d4',
  'secret123',
  'default1',
  'testtest',
  'test1234',
  'nigeria1',
  'nigeria123',
  'lagos123',
  'naija123',
  'jesus123',
  'blessing',
  'godisgood',
  'chelsea1',
  'arsenal1',
  'liverpool',
  'manchester',
  'mypassword',
]);

/** True for a password on the common list (or the list's word plus trailing digits/symbols). */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return true;
  const stem = lower.replace(/[\d\W_]+$/u, '');
  if (
    stem.length >= 4 &&
    (COMMON_PASSWORDS.has(stem) || ['password', 'passw0rd', 'qwerty', 'welcome', 'letmein', 'admin'].includes(stem))
  )
    return true;
  // One character repeated, or a run like 12345678 / abcdefgh.
  if (/^(.)\1+$/u.test(lower)) return true;
  return false;
}

/** What a refused password is told, in the Worker's answers and the browser's checks alike. */
export const PASSWORD_MESSAGES = {
  missingNew: 'Please enter a password',
  missingCurrent: 'Please enter your password',
  short: `Your password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  long: `Your password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  common: 'That password is too common. Please choose one that is harder to guess',
} as const;
