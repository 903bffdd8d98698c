import { z } from 'zod';

export const subscribeSchema = z.object({
  email: z
    .string({ error: 'Please enter your email address' })
    .trim()
    .toLowerCase()
    .min(1, 'Please enter your email address')
    .max(254, 'That email address is too long')
    .pipe(z.email({ error: 'Please enter a valid email address' })),
});
