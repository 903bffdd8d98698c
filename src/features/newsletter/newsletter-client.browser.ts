import { errorBodySchema } from '../../lib/api-error.ts';
import { newsletterAnswerSchema } from './newsletter-answers.ts';

export interface SubscribeResult {
  ok: boolean;
  message: string;
}

/**
 * Posts the address; answers with the Worker's own message, which is the same whether or not the
 * address was subscribed (the confirmation e-mail tells the rest).
 */
export async function subscribeToNewsletter(email: string): Promise<SubscribeResult> {
  if (!email.trim()) return { ok: false, message: 'Please enter your email address' };
  try {
    // subscribe.ts's path, written out: importing the contract would bring the full zod to every page.
    const response = await fetch('/api/subscribe', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    const json: unknown = await response.json().catch(() => null);
    if (response.ok) {
      const answer = newsletterAnswerSchema.safeParse(json);
      return answer.success ? { ok: true, message: answer.data.message } : { ok: false, message: 'Subscription failed' };
    }
    const body = errorBodySchema.safeParse(json);
    // The field's own reason ('Please enter a valid email address') reads better than the summary.
    const issue = body.success ? (body.data.error.issues?.[0]?.message ?? body.data.error.message) : undefined;
    return { ok: false, message: issue ?? 'Subscription failed' };
  } catch {
    return { ok: false, message: 'Network error. Please try again.' };
  }
}
