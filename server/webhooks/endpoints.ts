import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from "#server/db/schema";
import { recordAudit } from "#server/organizations/audit";
import { and, count, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "#server/context";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "#server/db/schema";
import { isInternalName, isPublicAddress, isTestReceiver, literalAddress, resolveSafeDestination, UnsafeDestination } from "#server/http/safe-destination";
import { Invalid, NotFound } from "#server/errors";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { isWebhookEventType, MAX_BULK_RETRY, MAX_WEBHOOK_ENDPOINTS, WEBHOOK_EVENT_TYPES, WEBHOOK_MESSAGES, type WebhookEventType } from "#common/webhooks";
import { enqueue } from "#server/jobs/queue";
import { attemptDelivery, deliveryErrorForOwner, encryptWebhookSecret, newWebhookSecret, WEBHOOK_DELIVERY_JOB } from "./deliveries";

/**
 * An organization's webhook endpoints (docs/webhooks.md): create, change,
 * pause, rotate the secret, delete, read the deliveries and replay one.
 * Owners and admins only (`organization:manage`); every function checks the
 * organization that owns the row, so another organization's member gets
 * FORBIDDEN.
 */

const uuid = z.string().uuid("Identificador inválido");

/** The endpoint as the back office and the API show it: never the secret. */
export type WebhookEndpointView = Omit<WebhookEndpointRow, "secretEncrypted" | "events"> & { events: WebhookEventType[] };

function view(row: WebhookEndpointRow): WebhookEndpointView {
  const rest: Partial<WebhookEndpointRow> = { ...row };
  delete rest.secretEncrypted;
  return { ...(rest as Omit<WebhookEndpointRow, "secretEncrypted">), events: row.events.filter(isWebhookEventType) };
}

function portOf(url: URL): number {
  return Number(url.port) || (url.protocol === "https:" ? 443 : 80);
}

/**
 * The quick check, as the person types (decision 151): a URL, https, and not
 * a literal address or a name that can only be internal. http:// only reaches
 * a test's own receiver (setOutgoingTestPolicy), never a deployment's.
 */
export function webhookUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return WEBHOOK_MESSAGES.urlInvalid;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return WEBHOOK_MESSAGES.urlInvalid;
  if (!url.hostname) return WEBHOOK_MESSAGES.urlInvalid;
  const literal = literalAddress(url.hostname);
  const testReceiver = literal !== null && isTestReceiver(literal, portOf(url));
  if (url.protocol === "http:" && !testReceiver) return WEBHOOK_MESSAGES.urlHttps;
  if (literal ? !testReceiver && !isPublicAddress(literal) : isInternalName(url.hostname)) return WEBHOOK_MESSAGES.urlPrivate;
  return null;
}

/** How long saving waits for DNS before leaving the check to the moment of sending. */
const SAVE_LOOKUP_MS = 3000;

/**
 * The name's current DNS answers, at save time, so a name that points inside
 * (`…nip.io`, a private record) gets the Spanish message at once. A name that
 * does not resolve yet is accepted: every send resolves it again and refuses
 * private answers then (server/http/safe-destination.ts).
 */
async function requirePublicDestination(value: string): Promise<void> {
  const url = new URL(value);
  try {
    await Promise.race([resolveSafeDestination(url), new Promise((resolve) => setTimeout(resolve, SAVE_LOOKUP_MS).unref())]);
  } catch (error) {
    if (error instanceof UnsafeDestination) throw new Invalid({ url: [WEBHOOK_MESSAGES.urlPrivate] }, WEBHOOK_MESSAGES.urlPrivate);
  }
}

const urlField = z
  .string({ error: WEBHOOK_MESSAGES.urlInvalid })
  .trim()
  .min(1, WEBHOOK_MESSAGES.urlInvalid)
  .max(2000, WEBHOOK_MESSAGES.urlTooLong)
  .superRefine((value, check) => {
    const problem = webhookUrlProblem(value);
    if (problem) check.addIssue({ code: "custom", message: problem });
  });

const descriptionField = z
  .string()
  .trim()
  .max(200, WEBHOOK_MESSAGES.descriptionTooLong)
  .nullish()
  .transform((v) => v ?? "");

const eventsField = z
  .array(z.string(), { error: WEBHOOK_MESSAGES.eventsRequired })
  .transform((list) => [...new Set(list)])
  .refine((list) => list.length > 0 && list.every(isWebhookEventType), WEBHOOK_MESSAGES.eventsRequired)
  .transform((list) => WEBHOOK_EVENT_TYPES.filter((t) => list.includes(t)));

export const createWebhookEndpointSchema = z.object({ organizationId: uuid, url: urlField, description: descriptionField, events: eventsField });
export const updateWebhookEndpointSchema = z.object({
  id: uuid,
  url: urlField.optional(),
  description: descriptionField.optional(),
  events: eventsField.optional(),
  active: z.boolean().optional(),
});

async function endpointFor(ctx: Ctx, id: string): Promise<WebhookEndpointRow> {
  const [row] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  if (!row) throw new NotFound(WEBHOOK_MESSAGES.notFound);
  await requireCapability(ctx, row.organizationId, "organization:manage");
  return row;
}

export async function listWebhookEndpoints(ctx: Ctx, organizationId: string): Promise<WebhookEndpointView[]> {
  await requireCapability(ctx, organizationId, "organization:manage");
  const rows = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.organizationId, organizationId))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
  return rows.map(view);
}

export async function getWebhookEndpoint(ctx: Ctx, id: string): Promise<WebhookEndpointView> {
  return view(await endpointFor(ctx, parseInput(uuid, id)));
}

/** A new endpoint and its secret, in clear this once (it is stored encrypted). */
export async function createWebhookEndpoint(ctx: Ctx, rawInput: DomainInput<typeof createWebhookEndpointSchema>): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const input = parseInput(createWebhookEndpointSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "organization:manage");
  await requirePublicDestination(input.url);
  const [{ total }] = await ctx.db.select({ total: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.organizationId, input.organizationId));
  if (total >= MAX_WEBHOOK_ENDPOINTS) throw new Invalid({ _form: [WEBHOOK_MESSAGES.tooMany] }, WEBHOOK_MESSAGES.tooMany);
  const secret = newWebhookSecret();
  const [row] = await ctx.db
    .insert(webhookEndpoints)
    .values({
      organizationId: input.organizationId,
      url: input.url,
      description: input.description,
      events: input.events,
      active: true,
      secretEncrypted: encryptWebhookSecret(secret),
      createdByUserId: ctx.actor.kind === "user" ? ctx.actor.userId : null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning();
  await recordAudit(ctx.db, ctx, { organizationId: row.organizationId, action: "webhook.create", targetId: row.id, data: { url: row.url, events: row.events } });
  return { endpoint: view(row), secret };
}

/** URL, description, events and the active flag (pause/resume); what is not sent stays. */
export async function updateWebhookEndpoint(ctx: Ctx, rawInput: DomainInput<typeof updateWebhookEndpointSchema>): Promise<WebhookEndpointView> {
  const input = parseInput(updateWebhookEndpointSchema, rawInput);
  const current = await endpointFor(ctx, input.id);
  if (input.url !== undefined) await requirePublicDestination(input.url);
  const [row] = await ctx.db
    .update(webhookEndpoints)
    .set({
      ...(input.url !== undefined && { url: input.url }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.events !== undefined && { events: input.events }),
      ...(input.active !== undefined && { active: input.active }),
      updatedAt: ctx.now,
    })
    .where(eq(webhookEndpoints.id, input.id))
    .returning();
  await recordAudit(ctx.db, ctx, { organizationId: row.organizationId, action: "webhook.update", targetId: row.id, data: { url: { from: current.url, to: row.url }, events: row.events, active: row.active } });
  return view(row);
}

const rotateWebhookSecretSchema = z.object({ id: uuid });

/** A new secret replaces the old one at once (no overlap: pending retries are signed with the new one). */
export async function rotateWebhookSecret(ctx: Ctx, rawInput: DomainInput<typeof rotateWebhookSecretSchema>): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const { id } = parseInput(rotateWebhookSecretSchema, rawInput);
  const current = await endpointFor(ctx, id);
  const secret = newWebhookSecret();
  const [row] = await ctx.db
    .update(webhookEndpoints)
    .set({ secretEncrypted: encryptWebhookSecret(secret), updatedAt: ctx.now })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  await recordAudit(ctx.db, ctx, { organizationId: current.organizationId, action: "webhook.rotate-secret", targetId: id, data: { url: current.url } });
  return { endpoint: view(row), secret };
}

const deleteWebhookEndpointSchema = z.object({ id: uuid });

/** Deletes the endpoint with its deliveries and their log; pending retries find nothing and stop. */
export async function deleteWebhookEndpoint(ctx: Ctx, rawInput: DomainInput<typeof deleteWebhookEndpointSchema>): Promise<boolean> {
  const { id } = parseInput(deleteWebhookEndpointSchema, rawInput);
  const current = await endpointFor(ctx, id);
  await ctx.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  await recordAudit(ctx.db, ctx, { organizationId: current.organizationId, action: "webhook.delete", targetId: id, data: { url: current.url } });
  return true;
}

export type WebhookDeliveryView = Omit<WebhookDeliveryRow, "body"> & { body: string; endpointUrl: string; attemptLog: WebhookAttemptRow[] };

/** Errors as the organization reads them: attempts logged before decision 151 may carry network detail (deliveryErrorForOwner). */
function forOwner(view: WebhookDeliveryView): WebhookDeliveryView {
  return { ...view, lastError: deliveryErrorForOwner(view.lastError), attemptLog: view.attemptLog.map((a) => ({ ...a, error: deliveryErrorForOwner(a.error) })) };
}

const deliveriesSchema = z
  .object({
    organizationId: uuid.optional(),
    endpointId: uuid.optional(),
    status: z.enum(["pending", "delivered", "failed"], { error: "Estado de envío desconocido" }).optional(),
    page: z.number().int().min(0).max(100_000).default(0),
    limit: z.number().int().min(1).max(100).default(20),
  })
  .refine((v) => v.organizationId || v.endpointId, { message: "Indicá la organización o el webhook.", path: ["_form"] });

/** Deliveries newest first, of one endpoint or of every endpoint of the organization, each with its attempts (oldest first). */
export async function listWebhookDeliveries(ctx: Ctx, rawInput: DomainInput<typeof deliveriesSchema>): Promise<{ items: WebhookDeliveryView[]; total: number; page: number; limit: number }> {
  const input = parseInput(deliveriesSchema, rawInput);
  let where;
  if (input.endpointId) {
    const endpoint = await endpointFor(ctx, input.endpointId);
    if (input.organizationId && input.organizationId !== endpoint.organizationId) throw new NotFound(WEBHOOK_MESSAGES.notFound);
    where = eq(webhookDeliveries.endpointId, endpoint.id);
  } else {
    await requireCapability(ctx, input.organizationId!, "organization:manage");
    where = eq(webhookDeliveries.organizationId, input.organizationId!);
  }
  if (input.status) where = and(where, eq(webhookDeliveries.status, input.status));
  const [[{ total }], rows] = await Promise.all([
    ctx.db.select({ total: count() }).from(webhookDeliveries).where(where),
    ctx.db
      .select({ delivery: webhookDeliveries, endpointUrl: webhookEndpoints.url })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(input.limit)
      .offset(input.page * input.limit),
  ]);
  const ids = rows.map((r) => r.delivery.id);
  const attempts = ids.length ? await ctx.db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids)).orderBy(webhookAttempts.id) : [];
  const items = rows.map((r) => forOwner({ ...r.delivery, endpointUrl: r.endpointUrl, attemptLog: attempts.filter((a) => a.deliveryId === r.delivery.id) }));
  return { items, total, page: input.page, limit: input.limit };
}

const replayWebhookDeliverySchema = z.object({ deliveryId: uuid });

/**
 * Replay: one new attempt of the same delivery (same id, same body, signed
 * now with the current secret), sent right away and logged as a replay. A
 * failed replay is not retried by the queue: the person can press again.
 */
export async function replayWebhookDelivery(ctx: Ctx, rawInput: DomainInput<typeof replayWebhookDeliverySchema>): Promise<WebhookDeliveryView> {
  const { deliveryId } = parseInput(replayWebhookDeliverySchema, rawInput);
  const [row] = await ctx.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!row) throw new NotFound(WEBHOOK_MESSAGES.deliveryNotFound);
  await requireCapability(ctx, row.endpoint.organizationId, "organization:manage");
  await attemptDelivery(ctx.db, row.delivery, row.endpoint, { replay: true });
  const [delivery] = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId)));
  const attemptLog = await ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId)).orderBy(webhookAttempts.id);
  return forOwner({ ...delivery, endpointUrl: row.endpoint.url, attemptLog });
}

const retrySchema = z.object({ organizationId: uuid, endpointId: uuid.optional() });

/**
 * "Reintentar los fallidos": the organization's failed deliveries (of one
 * endpoint, or all; active endpoints only, oldest first, up to
 * MAX_BULK_RETRY) go back to `pending` with a job each, in one transaction,
 * so the queue sends them again with its usual backoff and the same ids
 * (integrators deduplicate by id). The request itself sends nothing: a
 * hundred slow endpoints never hold a page. Returns how many.
 */
export async function retryFailedWebhookDeliveries(ctx: Ctx, rawInput: DomainInput<typeof retrySchema>): Promise<{ count: number }> {
  const input = parseInput(retrySchema, rawInput);
  await requireCapability(ctx, input.organizationId, "organization:manage");
  return ctx.db.transaction(async (tx) => {
    const failed = tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(
        and(
          eq(webhookDeliveries.organizationId, input.organizationId),
          eq(webhookDeliveries.status, "failed"),
          eq(webhookEndpoints.active, true),
          input.endpointId ? eq(webhookDeliveries.endpointId, input.endpointId) : undefined,
        ),
      )
      .orderBy(webhookDeliveries.createdAt)
      .limit(MAX_BULK_RETRY);
    // The conditional UPDATE decides: two clicks at once put each delivery back once.
    const retried = await tx
      .update(webhookDeliveries)
      .set({ status: "pending", failedAt: null, updatedAt: ctx.now })
      .where(and(inArray(webhookDeliveries.id, failed), eq(webhookDeliveries.status, "failed")))
      .returning({ id: webhookDeliveries.id });
    for (const { id } of retried) await enqueue(tx, WEBHOOK_DELIVERY_JOB, { deliveryId: id }, ctx.now);
    if (retried.length) await recordAudit(tx, ctx, { organizationId: input.organizationId, action: "webhook.retry-failed", data: { count: retried.length } });
    return { count: retried.length };
  });
}
