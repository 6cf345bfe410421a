import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DateTime } from "luxon";
import { EVENT_MESSAGES } from "#common/events";
import { getDb } from "#server/db/client";
import { eventDates } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { formRequest, run } from "#tests/support/remix";
import * as editar from "./organizacion.evento.editar.$slug";

/** The form's dd/mm/aaaa hh:mm, in Buenos Aires. */
const typed = (date: Date) => DateTime.fromJSDate(date).setZone("America/Argentina/Buenos_Aires").toFormat("dd/MM/yyyy HH:mm");

describe("/organizacion/evento/editar/{slug}: a date that already sold tickets (decision 145)", () => {
  it("refuses moving it into the past with the message next to the field, and saves nothing", async () => {
    const { event, date, tickets, user } = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }], { days: 7 });
    const db = await getDb();
    const payer = { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
    const { billing } = await createOrder(await ctxAs(), { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], payer, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, billing.id, "approved");
    const cookies = await sessionCookiesFor(user.id);
    const url = `/organizacion/evento/editar/${event.slug}`;
    const lastWeek = new Date(Date.now() - 7 * 86_400_000);

    const past = await run(editar.action, formRequest(url, { intent: "updateDate", id: date.id, startsAt: typed(lastWeek), endsAt: typed(new Date(lastWeek.getTime() + 4 * 3600_000)), doorsAt: "" }, { cookies }), { slug: event.slug });
    expect(past.status).toBe(400);
    expect(past.data).toMatchObject({ target: `date:${date.id}`, errors: { startsAt: [EVENT_MESSAGES.soldDateInPast] } });
    const [row] = await db.select().from(eventDates).where(eq(eventDates.id, date.id));
    expect(row.startsAt).toEqual(date.startsAt);
  });
});
