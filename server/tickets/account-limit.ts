import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { resultRows } from "#server/db/raw";
import { events, users } from "#server/db/schema";
import { Conflict, Unauthenticated } from "#server/errors";

/**
 * Per-account limits per event (decision 203): the organizer may cap how many
 * tickets of an event one account holds at once, however it got them — a
 * purchase, a ticket sent to it, a resale bought. Every way in calls
 * `assertWithinAccountLimit` inside the transaction that gives the tickets.
 */

/** GraphQL `extensions.reason` of the refusal (with `extensions.code` CONFLICT). */
export const ACCOUNT_LIMIT_REACHED = "ACCOUNT_LIMIT_REACHED";
/** GraphQL `extensions.reason` when an event with a limit is bought without signing in (code UNAUTHENTICATED). */
export const ACCOUNT_REQUIRED = "ACCOUNT_REQUIRED";

const entradas = (n: number) => (n === 1 ? "1 entrada" : `${n} entradas`);

/** The refusal: "Este evento permite hasta 4 entradas por cuenta y ya tenés 3: podés sumar 1 más." */
export function accountLimitMessage(limit: number, held: number, who: "self" | "recipient" = "self"): string {
  if (who === "recipient") {
    return held >= limit
      ? `Esa persona ya tiene ${entradas(held)} de este evento, el máximo por cuenta: no puede recibir más.`
      : `Esa persona ya tiene ${entradas(held)} de este evento y el máximo por cuenta es ${limit}.`;
  }
  const left = Math.max(0, limit - held);
  const head = `Este evento permite hasta ${entradas(limit)} por cuenta`;
  if (held === 0) return `${head}: elegí ${limit === 1 ? "1" : `hasta ${limit}`}.`;
  return left ? `${head} y ya tenés ${held}: podés sumar ${left === 1 ? "1 más" : `hasta ${left} más`}.` : `${head} y ya tenés ${held}: no podés sumar más.`;
}

/** Refused by the per-account limit: CONFLICT with reason ACCOUNT_LIMIT_REACHED; `limit` and `held` say how far. */
export class AccountLimitReached extends Conflict {
  constructor(
    readonly limit: number,
    readonly held: number,
    options: { who?: "self" | "recipient"; field?: string } = {},
  ) {
    const message = accountLimitMessage(limit, held, options.who);
    super(message, options.field ? { [options.field]: [message] } : {});
    this.reason = ACCOUNT_LIMIT_REACHED;
  }
}

/** The event's limit (null: none). */
export async function accountLimitOf(db: DbOrTx, eventId: string): Promise<number | null> {
  const [row] = await db.select({ limit: events.maxTicketsPerAccount }).from(events).where(eq(events.id, eventId));
  return row?.limit ?? null;
}

export interface AccountRef {
  eventId: string;
  /** The account (users.id). */
  accountId?: string | null;
  /** Its email; for a person without an account (a ticket sent to an address), the email alone. */
  email?: string | null;
  /** Orders still holding stock count until their hold ends; default the clock. */
  now?: Date;
}

/**
 * How many tickets of the event the account holds now: tickets not voided
 * that it bought (and did not send away), that were sent to its email, or
 * that were sold to its email without an account (a promoter's sale in hand),
 * plus the units of its orders still waiting for payment (their stock is
 * held for it). Invitations sent by the organizer do not count: they are
 * the organizer's own choice (decision 203). Menu items are not tickets.
 */
export async function ticketsHeldByAccount(db: DbOrTx, ref: AccountRef): Promise<number> {
  const now = ref.now ?? new Date();
  const accountId = ref.accountId ?? null;
  const email = ref.email?.trim().toLowerCase() || (accountId ? await emailOf(db, accountId) : null);
  const sent = sql`exists (select 1 from ticket_transfers tr where tr.issued_product_id = ip.id)`;
  const result = await db.execute(sql`
    select
      (select count(*) from issued_products ip
         join orders o on o.id = ip.order_id
         join ticket_types tt on tt.id = ip.ticket_type_id
        where ip.event_id = ${ref.eventId} and ip.status <> 'voided' and tt.kind = 'ticket'
          and (
            (${accountId}::uuid is not null and o.buyer_user_id = ${accountId}::uuid and not o.gift and not ${sent})
            or (${email}::text is not null and ${sent} and lower(ip.holder_email) = ${email}::text)
            or (${email}::text is not null and o.buyer_user_id is null and not o.gift and not ${sent} and lower(ip.holder_email) = ${email}::text)
          ))
      +
      (select coalesce(sum(oi.qty), 0) from orders o
         join order_items oi on oi.order_id = o.id
         join ticket_types tt on tt.id = oi.ticket_type_id
        where ${accountId}::uuid is not null and o.event_id = ${ref.eventId} and o.buyer_user_id = ${accountId}::uuid
          and o.status = 'draft' and (o.hold_expires_at is null or o.hold_expires_at > ${now.toISOString()}::timestamptz)
          and tt.kind = 'ticket')
      as held`);
  return Number(resultRows<{ held: string | number }>(result)[0]?.held ?? 0);
}

async function emailOf(db: DbOrTx, accountId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, accountId));
  return row?.email.toLowerCase() ?? null;
}

/**
 * Refuses (AccountLimitReached) when the account would hold more than the
 * event allows after `adding` tickets. Call it inside the transaction that
 * gives the tickets: it takes a transaction-scoped advisory lock per event and
 * account (by its email, so a purchase and a ticket sent to the same person
 * wait for each other), so two purchases at once cannot both pass the count.
 * No limit on the event: returns at once. `limit` saves the read when the
 * caller already has the event's row.
 */
export async function assertWithinAccountLimit(
  tx: DbOrTx,
  input: AccountRef & { adding: number; limit?: number | null; who?: "self" | "recipient"; field?: string },
): Promise<{ limit: number | null; held: number }> {
  const limit = input.limit !== undefined ? input.limit : await accountLimitOf(tx, input.eventId);
  if (limit == null || input.adding <= 0) return { limit, held: 0 };
  const accountId = input.accountId ?? null;
  const email = input.email?.trim().toLowerCase() || (accountId ? await emailOf(tx, accountId) : null);
  if (!accountId && !email) throw accountRequired(limit);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`tribuna:account-limit:${input.eventId}:${email ?? accountId}`}, 0))`);
  const held = await ticketsHeldByAccount(tx, { eventId: input.eventId, accountId, email, now: input.now });
  if (held + input.adding > limit) throw new AccountLimitReached(limit, held, { who: input.who, field: input.field });
  return { limit, held };
}

/**
 * The refusal a page shows BEFORE the payer form (null: go ahead): signed out
 * on an event with a limit, or an account that already holds too many to add
 * `adding`. The transaction that gives the tickets still checks under its lock.
 */
export async function accountLimitRefusal(db: DbOrTx, input: { eventId: string; accountId: string | null; adding: number; now?: Date }): Promise<string | null> {
  const limit = await accountLimitOf(db, input.eventId);
  if (limit == null) return null;
  if (!input.accountId) return accountRequired(limit).message;
  const held = await ticketsHeldByAccount(db, { eventId: input.eventId, accountId: input.accountId, now: input.now });
  return held + input.adding > limit ? accountLimitMessage(limit, held) : null;
}

/** An event with a limit is bought signed in: the limit is per account. */
export function accountRequired(limit: number): Unauthenticated {
  const error = new Unauthenticated(`Este evento permite hasta ${entradas(limit)} por cuenta: iniciá sesión para comprar.`);
  error.reason = ACCOUNT_REQUIRED;
  return error;
}
