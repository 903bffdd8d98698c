/** Times as Nigerian shoppers read them: Lagos time (WAT), 12-hour clock. */
const lagosTime = new Intl.DateTimeFormat('en-NG', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
  timeZone: 'Africa/Lagos',
});

export function formatLagosTime(iso: string): string {
  return lagosTime.format(new Date(iso));
}
