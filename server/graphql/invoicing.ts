import type { ArcaMessage, InvoiceRow } from "#server/db/schema";
import { invoicesOfBilling } from "#server/invoicing/queries";
import { qrUrl } from "#server/invoicing/qr";
import { builder } from "./builder";
import { Billing } from "./orders";
import { money } from "./scalars";

/*
 * The invoices of our service charge (docs/invoicing.md) under Billing: whoever may read the billing reads
 * its invoice and credit note (the billing's own authorization ran before this field resolves).
 */

const ArcaMessageRef = builder.objectRef<ArcaMessage>("ArcaMessage").implement({
  description: "A code and message of ARCA, in Spanish as ARCA wrote it.",
  fields: (t) => ({
    code: t.exposeInt("code", { nullable: false }),
    message: t.exposeString("message", { nullable: false }),
  }),
});

const Invoice = builder.objectRef<InvoiceRow>("Invoice").implement({
  description: "An electronic invoice (or credit note) of Tribuna's service charge, authorised by ARCA.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    kind: t.string({ nullable: false, description: "invoice or credit_note.", resolve: (i) => i.kind }),
    letter: t.string({ nullable: false, description: "A, B or C.", resolve: (i) => i.letter }),
    voucherType: t.exposeInt("voucherType", { nullable: false, description: "ARCA's CbteTipo: 1, 3, 6, 8, 11 or 13." }),
    pointOfSale: t.exposeInt("pointOfSale", { nullable: false }),
    number: t.exposeInt("number", { description: "Null until ARCA authorises it." }),
    status: t.string({ nullable: false, description: "pending, sending (sent, answer not recorded yet), authorised or rejected.", resolve: (i) => i.status }),
    cae: t.exposeString("cae"),
    caeDueDate: t.exposeString("caeDueDate", { description: "YYYY-MM-DD." }),
    total: t.exposeInt("total", { nullable: false, description: "Integer centavos." }),
    totalFormatted: t.string({ nullable: false, resolve: (i) => money(i.total)! }),
    observations: t.field({ type: [ArcaMessageRef], nullable: false, description: "ARCA's observations (Observaciones).", resolve: (i) => i.observations }),
    errors: t.field({ type: [ArcaMessageRef], nullable: false, description: "ARCA's errors when it rejected it.", resolve: (i) => i.errors }),
    qrUrl: t.string({
      description: "The RG 4892 QR's address, once authorised.",
      resolve: (i) =>
        i.status === "authorised" && i.cae && i.number && i.voucherDate
          ? qrUrl({ date: i.voucherDate, issuerCuit: i.issuerCuit, pointOfSale: i.pointOfSale, voucherType: i.voucherType, number: i.number, total: i.total, receiverDocType: i.receiverDocType, receiverDocNumber: i.receiverDocNumber, cae: i.cae })
          : null,
    }),
  }),
});

builder.objectField(Billing, "invoices", (t) =>
  t.field({
    type: [Invoice],
    nullable: false,
    description: "The invoice of Tribuna's service charge on this billing and, after a refund, its credit note. Empty when invoicing is off or there was no charge.",
    resolve: (b, _args, { ctx }) => invoicesOfBilling(ctx.db, b.billing.id),
  }),
);
