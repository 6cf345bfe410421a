import { desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { auditLog, users } from "#server/db/schema";
import { parseInput } from "#server/validation";
import { requireCapability } from "./permissions";

/*
 * The organization's record of changes (docs/team.md, decision 148): who changed
 * what — events, prices and stock, coupons, members, withdrawals, refunds,
 * the door — readable by its owners at /organizacion/registro-de-cambios.
 * Every entry carries `data.organizationId`; the domain functions write them
 * next to the change they record.
 */

/** What each action is, in the owners' words. */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  "event.status": "Cambió el estado de un evento",
  "event.publish": "Publicó un evento",
  "event.update": "Editó los datos de un evento",
  "event.schedule": "Editó las fechas y entradas de un evento",
  "event.presale-code": "Cambió el código de preventa",
  "event.pixel": "Cambió el píxel de un evento",
  "event.custom-fields": "Cambió los datos que se piden a quien compra",
  "event-date.create": "Agregó una fecha",
  "event-date.update": "Cambió una fecha",
  "event-date.status": "Cambió el estado de una fecha",
  "ticket-type.create": "Creó un tipo de entrada",
  "ticket-type.update": "Editó un tipo de entrada",
  "ticket-type.add-stock": "Agregó entradas",
  "ticket-type.status": "Cambió el estado de un tipo de entrada",
  "coupon.create": "Creó un cupón",
  "coupon.update": "Editó un cupón",
  "coupon.status": "Cambió el estado de un cupón",
  "withdrawal.request": "Pidió una extracción",
  "withdrawal.approve": "Aprobó una extracción (Tribuna)",
  "withdrawal.paid": "Transfirió una extracción (Tribuna)",
  "withdrawal.reject": "Rechazó una extracción (Tribuna)",
  "refund.approve": "Aprobó una devolución",
  "refund.reject": "Rechazó una devolución",
  "bank-transfer.approve": "Aprobó una transferencia",
  "bank-transfer.reject": "Rechazó una transferencia",
  "bank-account.create": "Agregó una cuenta bancaria",
  "bank-account.update": "Editó una cuenta bancaria",
  "bank-account.delete": "Borró una cuenta bancaria",
  "bank-account.for-transfers": "Eligió la cuenta para las transferencias",
  "mercadopago.connect": "Conectó Mercado Pago",
  "mercadopago.disconnect": "Desconectó Mercado Pago",
  "webhook.create": "Creó un webhook",
  "webhook.update": "Editó un webhook",
  "webhook.rotate-secret": "Cambió el secreto de un webhook",
  "webhook.delete": "Borró un webhook",
  "webhook.retry-failed": "Reintentó los envíos fallidos de webhooks",
  "team.change-role": "Cambió el rol de alguien del equipo",
  "team.remove": "Sacó a alguien del equipo",
  "door.undo-redemption": "Deshizo un ingreso",
  "door.pin-rotate": "Generó un PIN de puerta",
  "door.pin-revoke": "Anuló el PIN de puerta",
  "invitation.send": "Mandó una invitación",
  "invitation.resend": "Reenvió una invitación",
  "invitation.revoke": "Anuló una invitación",
  "promoters.invite": "Invitó a un RRPP",
  "promoters.remove": "Sacó a un RRPP",
  "promoters.set-lead": "Cambió el líder de un grupo de RRPP",
  "promoters.delete-group": "Borró un grupo de RRPP",
  "promoters.settlement": "Registró efectivo de un RRPP",
  "promoters.sale-in-hand": "Un RRPP vendió en mano",
  "resale.list": "Publicó una entrada en la reventa oficial",
  "resale.cancel": "Canceló una publicación de la reventa oficial",
  "resale.sold": "Se vendió una entrada de la reventa oficial",
  "resale.refunded": "Se le devolvió la plata a quien revendió",
  "resale.settings": "Cambió las reglas de la reventa oficial",
  "resale.payout-marked": "Marcó como devuelta la plata de una reventa",
  "resale.payout-retried": "Reintentó la devolución de una reventa por Mercado Pago",
  "waitlist.settings": "Cambió la lista de espera de un evento",
  "waitlist.join": "Alguien se anotó en la lista de espera",
  "waitlist.leave": "Alguien salió de la lista de espera",
  "waitlist.offer": "La lista de espera ofreció entradas",
  "waitlist.offer-expired": "Venció una oferta de la lista de espera",
  "waitlist.claim": "Alguien reclamó entradas de la lista de espera",
};

/** Writes one entry of the organization's record (in the caller's transaction when given one). */
export async function recordAudit(db: DbOrTx, ctx: Pick<Ctx, "actor" | "now">, entry: { organizationId: string; action: string; targetId?: string | null; data?: Record<string, unknown> }) {
  await db.insert(auditLog).values({
    actorId: ctx.actor.kind === "user" ? ctx.actor.userId : null,
    action: entry.action,
    targetId: entry.targetId ?? null,
    data: { ...entry.data, organizationId: entry.organizationId },
    createdAt: ctx.now,
  });
}

const listSchema = z.object({
  organizationId: z.string().uuid("Identificador inválido"),
  page: z.number().int().min(0).max(10_000).default(0),
  limit: z.number().int().min(1).max(100).default(50),
});

/** The record, newest first, with who did it. Owners only (audit:read); platform admins for support. */
export async function listOrganizationAudit(ctx: Ctx, input: z.input<typeof listSchema>) {
  const data = parseInput(listSchema, input);
  await requireCapability(ctx, data.organizationId, "audit:read");
  const mine = sql`${auditLog.data}->>'organizationId' = ${data.organizationId}`;
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({ entry: auditLog, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .where(mine)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(data.limit)
      .offset(data.page * data.limit),
    ctx.db.select({ total: sql<number>`count(*)::int` }).from(auditLog).where(mine),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.entry.id,
      action: r.entry.action,
      label: AUDIT_ACTION_LABELS[r.entry.action] ?? r.entry.action,
      actor: r.email ? `${r.firstName ?? ""} ${r.lastName ?? ""}`.trim() || r.email : "Sistema",
      targetId: r.entry.targetId,
      data: (r.entry.data ?? {}) as Record<string, unknown>,
      createdAt: r.entry.createdAt,
    })),
    total,
    page: data.page,
    limit: data.limit,
  };
}
