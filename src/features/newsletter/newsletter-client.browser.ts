import { errorBodySchema } from '../../lib/api-error.ts';

export interface SubscribeResult {
  ok: boolean;
  message: string;
}

/** Posts the address; answers with the spec's messages (section 8). */
export async function subscribeToNewsletter(email: string): Promise<SubscribeResult> {
  if (!email.trim()) return { ok: false, message: 'Please enter your email address' };
  try {
    const response = await fetch('/api/subscribe', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    if (response.ok) return { ok: true, message: 'Thank you for subscribing!' };
    const body = errorBodySchema.safeParse(await response.json().catch(() => null));
    // The field's own reason ('Please enter a valid email address') reads better than the summary.
    const issue = body.success ? (body.data.error.issues?.[0]?.message ?? body.data.error.message) : undefined;
    return { ok: false, message: issue ?? 'Subscription failed' };
  } catch {
    return { ok: false, message: 'Network error. Please try again.' };
  }
}
