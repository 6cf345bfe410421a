import { describe, expect, it } from "vitest";
import { TEAM_INVITATION_EMAIL_KIND } from "#server/team/team";
import { createTestUser, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { lastEmailTo } from "#tests/support/mailbox";
import { randomTag } from "#tests/support/random";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as accept from "./organizacion_.operadores_.aceptar.$token";
import * as groups from "./organizacion.relaciones-publicas.grupos";
import * as myGroup from "./organizacion.relaciones-publicas.mi-grupo";
import * as home from "./organizacion._index";
import * as sales from "./organizacion.resumen-de-ventas";

const GROUPS = "/organizacion/relaciones-publicas/grupos";
const MY_GROUP = "/organizacion/relaciones-publicas/mi-grupo";

describe("/organizacion/relaciones-publicas", () => {
  it("the organization makes a group and invites its lead; the lead picks a nickname, lands on their page and invites a promoter; roles see only their pages", async () => {
    const made = await createEventWithTickets([
      { name: "General", price: 1_000_000, stock: 50 },
      { name: "Mano", price: 500_000, stock: 5, paymentMethod: "PromoterAccount" },
    ]);
    const owner = await sessionCookiesFor(made.user.id);

    // Create: a bad commission comes back next to its field, with what was typed.
    const bad = await run(groups.action, formRequest(GROUPS, { intent: "create", name: "Los de la noche", commissionPerTicket: "mucho", [`event-${made.event.id}`]: "on" }, { cookies: owner }));
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({ target: "create", errors: { commissionPerTicket: [expect.stringContaining("comisión")] }, values: { name: "Los de la noche" } });
    const created = await run(groups.action, formRequest(GROUPS, { intent: "create", name: "Los de la noche", commissionPerTicket: "1.500", [`event-${made.event.id}`]: "on" }, { cookies: owner }));
    expect(created.status).toBe(302);
    const listed = await run(groups.loader, getRequest(GROUPS, { cookies: owner }));
    const [group] = listed.data.groups;
    expect(group).toMatchObject({ name: "Los de la noche", commission: 150_000, eventIds: [made.event.id], sells: made.event.name, members: [] });

    // Invite the lead by email; they accept with a nickname and land on their page.
    const lead = await createTestUser({ firstName: "Romina", lastName: "Líder" });
    expect((await run(groups.action, formRequest(GROUPS, { intent: "invite", groupId: group.id, who: lead.email, lead: "on" }, { cookies: owner }))).status).toBe(302);
    const token = /\/organizacion\/operadores\/aceptar\/([A-Za-z0-9_-]+)/.exec((await lastEmailTo(lead.email, TEAM_INVITATION_EMAIL_KIND)).text)![1];
    const leadCookies = await sessionCookiesFor(lead.id);
    const preview = await run(accept.loader, getRequest(`/organizacion/operadores/aceptar/${token}`, { cookies: leadCookies }), { token });
    expect(preview.data.invitation).toMatchObject({ roleLabel: "Líder de RRPP", needsNickname: true });
    const noNick = await run(accept.action, formRequest(`/organizacion/operadores/aceptar/${token}`, { nickname: "" }, { cookies: leadCookies }), { token });
    expect(noNick.status).toBe(400);
    expect(noNick.data.nicknameError).toBe("Elegí tu apodo: es el final de tu link de RRPP.");
    const nickname = `romi.${randomTag(5)}`;
    const joined = await run(accept.action, formRequest(`/organizacion/operadores/aceptar/${token}`, { nickname }, { cookies: leadCookies }), { token });
    expect(joined.status).toBe(302);
    expect(joined.location).toBe(`${MY_GROUP}?organizationId=${made.organization.id}`);
    expect((await run(home.loader, getRequest("/organizacion", { cookies: leadCookies }))).location).toBe(MY_GROUP);

    // Their page: the link and QR of the event, no sales yet, the in-hand ticket type, and the group to run.
    const page = await run(myGroup.loader, getRequest(MY_GROUP, { cookies: leadCookies }));
    expect(page.data.mine).toMatchObject({ isLead: true, group: { name: "Los de la noche" }, me: { sold: 0, accredited: 0 } });
    expect(page.data.mine.links).toEqual([expect.objectContaining({ eventName: made.event.name, url: expect.stringMatching(new RegExp(`/eventos/${made.event.slug}/${nickname.replace(".", "\\.")}$`)) })]);
    expect(page.data.mine.links[0].qrSvg).toMatch(/^<svg/);
    expect(page.data.inHand.map((t: { label: string }) => t.label)).toEqual([expect.stringContaining("Mano")]);

    // The lead invites a promoter; a typo comes back next to the field.
    const typo = await run(myGroup.action, formRequest(MY_GROUP, { intent: "invite", groupId: group.id, who: "nadie.con.este.nick" }, { cookies: leadCookies }));
    expect(typo.status).toBe(400);
    expect(typo.data).toMatchObject({ target: "invite", errors: { who: [expect.stringContaining("No hay nadie con ese apodo")] } });
    const promoter = await createTestUser();
    expect((await run(myGroup.action, formRequest(MY_GROUP, { intent: "invite", groupId: group.id, who: promoter.email }, { cookies: leadCookies }))).status).toBe(302);
    expect((await run(myGroup.loader, getRequest(MY_GROUP, { cookies: leadCookies }))).data.mine.invitations).toEqual([expect.objectContaining({ who: promoter.email.toLowerCase() })]);

    // Sale in hand: errors next to the fields, then the tickets are issued.
    const sale = { intent: "sell", ticketTypeId: made.tickets.Mano.id, qty: "2", email: "efectivo@", firstName: "Lola", lastName: "Mora", documentNumber: "" };
    const badSale = await run(myGroup.action, formRequest(MY_GROUP, sale, { cookies: leadCookies }));
    expect(badSale.status).toBe(400);
    expect(badSale.data).toMatchObject({ target: "sell", errors: { email: ["Este campo debe ser un email válido"] } });
    expect((await run(myGroup.action, formRequest(MY_GROUP, { ...sale, email: "efectivo@example.com" }, { cookies: leadCookies }))).status).toBe(302);
    const after = await run(myGroup.loader, getRequest(MY_GROUP, { cookies: leadCookies }));
    expect(after.data.mine.me).toMatchObject({ sold: 2, accredited: 0, commission: 2 * 150_000, owed: expect.any(Number) });
    expect(after.data.metrics).toEqual([expect.objectContaining({ totalCount: 2, tickets: [{ name: "Mano", count: 2, accredited: 0 }] })]);

    // The sales list: the spec's default leaves sales in hand out; the promoter's filter shows them, with the nick.
    const defaultList = await run(sales.loader, getRequest("/organizacion/resumen-de-ventas", { cookies: owner }));
    expect(defaultList.data.orders).toEqual([]);
    const theirs = await run(sales.loader, getRequest(`/organizacion/resumen-de-ventas?rrpp=${nickname.toUpperCase()}`, { cookies: owner }));
    expect(theirs.data.orders).toEqual([expect.objectContaining({ units: 2, paymentMethod: "En mano (RRPP)", promoter: nickname })]);

    // Roles: the lead is refused the organization's groups page; a buyer without membership gets the create page; the owner has no promoter page.
    expect((await run(groups.loader, getRequest(GROUPS, { cookies: leadCookies }))).status).toBe(403);
    const stranger = await createEventWithTickets();
    expect((await run(groups.loader, getRequest(`${GROUPS}?organizationId=${made.organization.id}`, { cookies: await sessionCookiesFor(stranger.user.id) }))).status).toBe(403);
    expect((await run(myGroup.loader, getRequest(MY_GROUP, { cookies: owner }))).status).toBe(403);
  });
});
