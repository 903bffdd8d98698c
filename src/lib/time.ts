/**
 * Times as Nigerian shoppers read them: Lagos time (WAT), 12-hour clock.
 *
 * The formatter is made on first use, not when a page loads this module: making it loads the
 * locale's and the time zone's data, about 35 ms of the main thread here (150 ms on Lighthouse's
 * slowed phone), which every /cart load paid for a pick-up time it may never show (issue 23).
 */
let lagosTime: Intl.DateTimeFormat | undefined;

export function formatLagosTime(iso: string): string {
  lagosTime ??= new Intl.DateTimeFormat('en-NG', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
    timeZone: 'Africa/Lagos',
  });
  return lagosTime.format(new Date(iso));
}
