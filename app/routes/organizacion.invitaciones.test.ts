import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { memberships } from "#server/db/schema";
import { runGiveaway } from "#server/invitations/giveaways";
import { createTestUser, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { randomTag } from "#tests/support/random";
import { BASE_URL, formRequest, getRequest, run } from "#tests/support/remix";
import * as giveawayPage from "./organizacion.evento.enviar-tickets.$slug";
import * as invitations from "./organizacion.invitaciones";

const cookiesFor = sessionCookiesFor;

describe("/organizacion/invitaciones", () => {
  it("sends an invitation with the form, lists it, shows errors next to the fields, and revokes it", async () => {
    const made = await createEventWithTickets([{ name: "Invitados", price: 0, stock: 5 }]);
    const cookies = await cookiesFor(made.user.id);
    const path = `/organizacion/invitaciones?eventId=${made.event.id}`;
    const email = `guest-${randomTag(8)}@example.com`;
    const fields = { intent: "send", email, firstName: "Julieta", lastName: "Venegas", documentNumber: "", qty: "2", ticketTypeId: made.tickets.Invitados.id };

    const page = await run(invitations.loader, getRequest(path, { cookies }));
    expect(page.data.event).toMatchObject({ id: made.event.id });
    expect(page.data.tickets).toEqual([{ value: made.tickets.Invitados.id, label: "Invitados · quedan 5", dated: false }]);

    const bad = await run(invitations.action, formRequest(path, { ...fields, email: "julieta@", qty: "99" }, { cookies }));
    expect(bad.status).toBe(400);
    expect(bad.data.errors).toMatchObject({ email: ["Este campo debe ser un email válido"], qty: ["La cantidad tiene que ser un número entre 1 y 20."] });
    expect(bad.data.values.firstName).toBe("Julieta");

    const tooMany = await run(invitations.action, formRequest(path, { ...fields, qty: "6" }, { cookies }));
    expect(tooMany.status).toBe(400);
    expect(tooMany.data.snackbar.message).toBe("No alcanza el stock de Invitados: quedan 5.");

    const sent = await run(invitations.action, formRequest(path, fields, { cookies }));
    expect(sent.status).toBe(302);
    const listed = await run(invitations.loader, getRequest(path, { cookies }));
    expect(listed.data.invitations).toEqual([expect.objectContaining({ guestName: "Julieta Venegas", email, qty: 2, status: "active" })]);
    expect(listed.data.tickets[0].label).toBe("Invitados · quedan 3");

    const revoked = await run(invitations.action, formRequest(path, { intent: "revoke", orderId: listed.data.invitations[0].id }, { cookies }));
    expect(revoked.status).toBe(302);
    const after = await run(invitations.loader, getRequest(path, { cookies }));
    expect(after.data.invitations[0].status).toBe("revoked");
    expect(after.data.tickets[0].label).toBe("Invitados · quedan 5");
  });

  it("is not for staff, and another organization's event is refused", async () => {
    const made = await createEventWithTickets();
    const staff = await createTestUser();
    const db = await getDb();
    await db.insert(memberships).values({ organizationId: made.organization.id, userId: staff.id, role: "staff" });
    const staffPage = await run(invitations.loader, getRequest("/organizacion/invitaciones", { cookies: await cookiesFor(staff.id) }));
    expect(staffPage.status).toBe(403);
    const stranger = await createEventWithTickets();
    const cookies = await cookiesFor(stranger.user.id);
    const sent = await run(
      invitations.action,
      formRequest(`/organizacion/invitaciones?eventId=${made.event.id}`, { intent: "send", email: "a@example.com", firstName: "Ana", lastName: "Gómez", qty: "1", ticketTypeId: made.tickets.General.id }, { cookies }),
    );
    expect(sent.status).toBe(403);
  });
});

describe("/organizacion/evento/enviar-tickets/{slug}", () => {
  it("uploads a CSV file, previews its rows with their errors, sends the good ones and shows the progress", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 50 }]);
    const cookies = await cookiesFor(made.user.id);
    const path = `/organizacion/evento/enviar-tickets/${made.event.slug}`;
    const tag = randomTag(6);
    const csv = `email,nombre,apellido,dni,cantidad,tipo de entrada\nana-${tag}@example.com,Ana,Gómez,30123456,2,General\nroto,Beto,Pérez,,1,General\n`;
    const form = new FormData();
    form.set("intent", "upload");
    form.set("fileName", "invitados.csv");
    form.set("file", new File([csv], "invitados.csv", { type: "text/csv" }));
    const upload = await run(giveawayPage.action, new Request(new URL(path, BASE_URL), { method: "POST", body: form, headers: { cookie: `at=${cookies.at}; rt=${cookies.rt}` } }), { slug: made.event.slug });
    expect(upload.status).toBe(302);
    const giveawayId = new URL(upload.location!, BASE_URL).searchParams.get("carga")!;
    const preview = await run(giveawayPage.loader, getRequest(upload.location!, { cookies }), { slug: made.event.slug });
    expect(preview.data.upload).toMatchObject({ status: "preview", view: "problemas", counts: { ready: 1, invalid: 1 } });
    expect(preview.data.upload.rows).toEqual([expect.objectContaining({ line: 3, status: "invalid", error: "El email no es válido." })]);

    const empty = new FormData();
    empty.set("intent", "upload");
    const noFile = await run(giveawayPage.action, new Request(new URL(path, BASE_URL), { method: "POST", body: empty, headers: { cookie: `at=${cookies.at}; rt=${cookies.rt}` } }), { slug: made.event.slug });
    expect(noFile.status).toBe(400);
    expect(noFile.data.errors.file).toEqual(["El archivo está vacío."]);

    const send = await run(giveawayPage.action, formRequest(path, { intent: "send", giveawayId }, { cookies }), { slug: made.event.slug });
    expect(send.status).toBe(302);
    await runGiveaway(await getDb(), giveawayId, new Date());
    const done = await run(giveawayPage.loader, getRequest(`${path}?carga=${giveawayId}&ver=listas`, { cookies }), { slug: made.event.slug });
    expect(done.data.upload).toMatchObject({ status: "done", done: 1, toSend: 1, counts: { sent: 1 } });
    expect(done.data.upload.rows).toEqual([expect.objectContaining({ line: 2, status: "sent", qty: 2 })]);
  });
});
