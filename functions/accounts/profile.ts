import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Profile, ProfileUpdateRequest } from '../../src/features/account/account-api.ts';
import type { profileUpdateSchema } from '../../src/features/account/account-api.ts';
import type { z } from 'zod';
import type { Db } from '../platform/db.ts';
import { accounts, users, type UserRow } from '../platform/schema.ts';

export type ProfileUpdate = z.output<typeof profileUpdateSchema>;
export type { ProfileUpdateRequest };

/** The profile as the account pages show it. */
export async function loadProfile(db: Db, user: UserRow): Promise<Profile> {
  const [google] = await db.select({ n: sql<number>`count(*)` }).from(accounts).where(eq(accounts.userId, user.id));
  return {
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerified !== null,
    hasPassword: user.passwordHash !== null,
    hasGoogle: (google?.n ?? 0) > 0,
    phone: user.phone,
    address: user.address,
    city: user.city,
    state: user.state as Profile['state'],
    notifications: { orderUpdates: user.notifyOrderUpdates, promotions: user.notifyPromotions },
    theme: user.theme,
  };
}

/**
 * Saves the fields the request has, and only those: the schema is strict, so e-mail, role,
 * verification or another user's id can never reach this update; the row is the session's.
 */
export async function updateProfile(db: Db, user: UserRow, update: ProfileUpdate): Promise<UserRow> {
  const set: Partial<typeof users.$inferInsert> = {};
  if (update.name !== undefined) set.name = update.name;
  if (update.phone !== undefined) set.phone = update.phone;
  if (update.address !== undefined) set.address = update.address;
  if (update.city !== undefined) set.city = update.city;
  if (update.state !== undefined) set.state = update.state;
  if (update.theme !== undefined) set.theme = update.theme;
  if (update.notifications?.orderUpdates !== undefined) set.notifyOrderUpdates = update.notifications.orderUpdates;
  if (update.notifications?.promotions !== undefined) set.notifyPromotions = update.notifications.promotions;
  if (!Object.keys(set).length) return user;
  const [row] = await db.update(users).set(set).where(eq(users.id, user.id)).returning();
  return row ?? user;
}

/**
 * A signed-in shopper's order for themselves fills what their profile left empty, as a statement
 * for the order's own batch: the name and phone each when blank, the delivery address (address, city, state) only
 * when all three are blank and the order is delivered. What they saved themselves is never
 * overwritten; the next checkout starts from it.
 */
export function fillEmptyProfileStatement(
  db: Db,
  owner: Pick<UserRow, 'id' | 'sessionVersion'>,
  customer: { name: string; phone: string; address: string; city: string; state: string },
) {
  const blank = (column: SQL) => sql`coalesce(${column}, '') = ''`;
  const noAddress = sql`${blank(sql`${users.address}`)} and ${blank(sql`${users.city}`)} and ${blank(sql`${users.state}`)}`;
  const fromOrder = (column: SQL, value: string, when: SQL) => sql`case when ${when} then ${value} else ${column} end`;
  const addressGiven = customer.address !== '';
  return (
    db
      .update(users)
      .set({
        name: fromOrder(sql`${users.name}`, customer.name, blank(sql`${users.name}`)),
        phone: fromOrder(sql`${users.phone}`, customer.phone, blank(sql`${users.phone}`)),
        ...(addressGiven
          ? {
              address: fromOrder(sql`${users.address}`, customer.address, noAddress),
              city: fromOrder(sql`${users.city}`, customer.city, noAddress),
              state: fromOrder(sql`${users.state}`, customer.state, noAddress),
            }
          : {}),
      })
      // Only at the version the order's session was checked at: a claim or reset that cleared the
      // profile meanwhile (firstProofStatements) is not refilled with what an ended session typed.
      .where(and(eq(users.id, owner.id), eq(users.sessionVersion, owner.sessionVersion)))
  );
}
