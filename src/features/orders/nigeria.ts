/** The 36 states and the Federal Capital Territory, as a shopper picks them at checkout. */
export const NIGERIAN_STATES = [
  'Abia',
  'Adamawa',
  'Akwa Ibom',
  'Anambra',
  'Bauchi',
  'Bayelsa',
  'Benue',
  'Borno',
  'Cross River',
  'Delta',
  'Ebonyi',
  'Edo',
  'Ekiti',
  'Enugu',
  'Federal Capital Territory',
  'Gombe',
  'Imo',
  'Jigawa',
  'Kaduna',
  'Kano',
  'Katsina',
  'Kebbi',
  'Kogi',
  'Kwara',
  'Lagos',
  'Nasarawa',
  'Niger',
  'Ogun',
  'Ondo',
  'Osun',
  'Oyo',
  'Plateau',
  'Rivers',
  'Sokoto',
  'Taraba',
  'Yobe',
  'Zamfara',
] as const;

export type NigerianState = (typeof NIGERIAN_STATES)[number];

/**
 * A Nigerian mobile number in any of the ways people write one (0803 123 4567,
 * +234 803 123 4567, +234 (0) 803 123 4567, 2348031234567, 002348031234567, with spaces,
 * dashes, dots or brackets) as
 * +2348031234567, or undefined when it is not one. Mobile numbers are ten digits
 * after the country code, starting 70, 71, 80, 81, 90 or 91 (NCC numbering plan).
 */
export function normalizeNigerianPhone(input: string): string | undefined {
  const digits = input.trim().replace(/[\s().-]/g, '');
  // The trunk 0 after the country code ("+234 (0) 803…", "+234 0803…") is a common way to
  // write it and cannot mean anything else; so is 00 for the +.
  const match = /^(?:(?:\+|00)?2340?|0)([789][01]\d{8})$/.exec(digits);
  return match ? `+234${match[1]}` : undefined;
}

/** +2348031234567 → 0803 123 4567, how Nigerians read a number back. */
export function formatNigerianPhone(e164: string): string {
  const local = e164.replace(/^\+234/, '0');
  return `${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}`;
}
