import { z } from 'zod';
import { CATEGORY_IDS } from '../catalogue/categories.ts';
import { productIdSchema } from '../catalogue/product.ts';
import { customerFields } from '../orders/checkout.ts';
import { NIGERIAN_STATES } from '../orders/nigeria.ts';
import { TRADE_IN_STATUSES } from './trade-in-status.ts';
import { BATTERY_HEALTH, CONDITION_QUESTIONS, MAX_TRADE_IN_PHOTOS, TRADE_IN_BRANDS } from './trade-in-rules.ts';

/**
 * A trade-in request (sell or swap a device, issue 14): what the /sell-or-swap form sends and
 * the Worker validates with the same schema (field messages in the browser, a 400 naming the
 * field from the API), and the request as the API shows it to the shopper. Money is kobo.
 */

// ── The request ───────────────────────────────────────────────────────────────────────────

export {
  BATTERY_HEALTH,
  BATTERY_HEALTH_LABELS,
  type BatteryHealth,
  CONDITION_QUESTIONS,
  type ConditionQuestion,
  MAX_PHOTO_BYTES,
  MAX_TRADE_IN_PHOTOS,
  OTHER_BRAND,
  PHOTO_TYPES,
  TRADE_IN_BRANDS,
} from './trade-in-rules.ts';

const answer = (question: string) =>
  z.boolean({ error: `Please answer: ${question.charAt(0).toLowerCase()}${question.slice(1)}` });

/** Free text that may be typed over several lines; stored as one (it goes into e-mails). */
const noteText = (label: string, max: number) =>
  z
    .string({ error: `Your ${label} must be text` })
    .overwrite((value) => value.replace(/\s*[\r\n]+\s*/g, ' ').trim())
    .normalize('NFC')
    .max(max, `Your ${label} must be at most ${max} characters`)
    .refine((value) => !/[\p{Cc}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]/u.test(value), {
      message: `Your ${label} has hidden characters: please type it again`,
    });

const oneLine = (label: string, min: number, max: number) =>
  z
    .string({ error: `Please enter the ${label}` })
    .trim()
    .overwrite((value) => value.replace(/\p{Zs}+/gu, ' '))
    .normalize('NFC')
    .min(min, min === 1 ? `Please enter the ${label}` : `Please enter the ${label} (at least ${min} characters)`)
    .max(max, `The ${label} must be at most ${max} characters`)
    .refine((value) => !/[\p{Cc}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]/u.test(value), {
      message: `Please write the ${label} on one line`,
    });

export const tradeInDeviceSchema = z.object({
  category: z.enum(CATEGORY_IDS, { error: 'Please choose what kind of device it is' }),
  brand: z.enum(TRADE_IN_BRANDS, { error: 'Please choose the brand (or Other)' }),
  model: oneLine('model', 2, 80),
  /** "128GB", "1TB"; empty for a device without storage (a TV, a controller). */
  storage: z
    .string({ error: 'Storage must be text' })
    .trim()
    .max(20, 'Storage must be at most 20 characters')
    .regex(/^[\p{L}\p{N} .+/-]*$/u, 'Write the storage like 128GB or 1TB')
    .default(''),
});

export const tradeInConditionSchema = z.object({
  turnsOn: answer(CONDITION_QUESTIONS.turnsOn),
  screenCracked: answer(CONDITION_QUESTIONS.screenCracked),
  bodyDents: answer(CONDITION_QUESTIONS.bodyDents),
  batteryHealth: z.enum(BATTERY_HEALTH, { error: 'Please choose the battery health (or “I don’t know”)' }),
  accountRemoved: answer(CONDITION_QUESTIONS.accountRemoved),
  originalBox: answer(CONDITION_QUESTIONS.originalBox),
  /** Anything else the store should know (a repaired screen, a missing charger). */
  notes: noteText('note', 500).default(''),
});

/** What the shopper wants for it: cash, or a swap for a product (and variant) of the catalogue. */
export const tradeInWantSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('cash') }),
    z.object({
      kind: z.literal('swap'),
      productId: productIdSchema,
      /** The variant's id ('' for a product without variants). */
      variant: z.string().trim().max(80).default(''),
    }),
  ],
  { error: 'Choose cash or a swap' },
);

const { name, email, phone } = customerFields;
export const tradeInContactSchema = z.object({
  name,
  email,
  phone,
  state: z.enum(NIGERIAN_STATES, { error: 'Please choose your state' }),
});

/** POST /api/trade-ins: the form's fields (the `request` part of the multipart body; photos are the `photos` parts). */
export const tradeInRequestSchema = z.object({
  device: tradeInDeviceSchema,
  condition: tradeInConditionSchema,
  want: tradeInWantSchema,
  contact: tradeInContactSchema,
});
export type TradeInRequest = z.output<typeof tradeInRequestSchema>;
export type TradeInRequestInput = z.input<typeof tradeInRequestSchema>;

/** TRD- and 10 base32 characters (see functions/platform/crypto.ts). */
export const tradeInReferenceSchema = z
  .string({ error: 'Please enter your trade-in reference' })
  .trim()
  .toUpperCase()
  .min(1, 'Please enter your trade-in reference')
  .regex(/^TRD-[0-9A-Z]{4,20}$/, 'References look like TRD-7K3M9Q2XWD');

/** POST /api/trade-ins/lookup: a guest finds a request by its reference and e-mail, like an order. */
export const tradeInLookupSchema = z.object({ reference: tradeInReferenceSchema, email: customerFields.email });

/**
 * Who is answering: the signed-in owner needs nothing more; anyone else proves it with the
 * request's e-mail, as the lookup does. Another person's session or a wrong e-mail is refused.
 */
const requesterProof = { email: customerFields.email.optional() };

/** POST /api/trade-ins/:reference/respond: the shopper accepts or declines the offer they were shown. */
export const tradeInResponseSchema = z.object({
  ...requesterProof,
  decision: z.enum(['accept', 'decline'], { error: 'Choose accept or decline' }),
  /** The offer (kobo) the shopper saw: if the store changed it meanwhile, the answer is 409 `offer_changed`. */
  offer: z.number({ error: 'The offer you saw is required' }).int().positive(),
});

// ── The request as the API shows it ───────────────────────────────────────────────────────

const kobo = z.number().int().nonnegative();
const instant = z.iso.datetime();

export const tradeInViewSchema = z.object({
  reference: z.string(),
  status: z.enum(TRADE_IN_STATUSES),
  createdAt: instant,
  device: z.object({ category: z.string(), brand: z.string(), model: z.string(), storage: z.string() }),
  condition: tradeInConditionSchema.extend({ notes: z.string() }),
  want: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('cash') }),
    z.object({
      kind: z.literal('swap'),
      productId: z.string(),
      variant: z.string(),
      /** The product's name and the variant's label when the request was made. */
      name: z.string(),
      variantLabel: z.string(),
      /** Its price now (kobo), or null when it is no longer on sale. */
      price: kobo.nullable(),
    }),
  ]),
  photos: z.number().int().min(0).max(MAX_TRADE_IN_PHOTOS),
  contact: z.object({ name: z.string(), email: z.string(), phone: z.string(), state: z.string() }),
  /** The store's offer, once made (and kept after the shopper's answer). */
  offer: z.object({ amount: kobo, note: z.string(), at: instant }).nullable(),
  /** For a swap with an offer: the product's price now minus the offer (what the shopper pays; below 0, what the store pays). */
  difference: z.number().int().nullable(),
  history: z.array(z.object({ status: z.enum(TRADE_IN_STATUSES), at: instant, note: z.string().nullable() })),
  /** The order placed for an accepted swap (the latest one), if any. */
  order: z.object({ number: z.string(), status: z.string() }).nullable(),
  /** The shopper may accept or decline now. */
  canRespond: z.boolean(),
  /** The shopper may place the swap's order now (accepted swap, no live order for it). */
  canOrder: z.boolean(),
});
export type TradeInView = z.infer<typeof tradeInViewSchema>;

export const tradeInAnswerSchema = z.object({ tradeIn: tradeInViewSchema });
