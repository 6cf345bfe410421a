import { and, eq } from "drizzle-orm";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { auditLog, memberships } from "#server/db/schema";
import { openDoor } from "#server/door/access";
import { TEAM_INVITATION_EMAIL_KIND } from "#server/team/team";
import { actorFor, createTestUser, ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createProducer, createPublishedEvent, makePromoter } from "#tests/support/factories";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import { lastEmailTo } from "#tests/support/mailbox";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as team from "./organizacion.operadores";
import * as accept from "./organizacion_.operadores_.aceptar.$token";

const cookiesFor = sessionCookiesFor;

const PATH = "/organizacion/operadores";

describe("/organizacion/operadores", () => {
  it("the owner invites by email; the link works for an account made later; the new staff member works the door and nothing else", async () => {
    const owner = await createProducer();
    const { event } = await createPublishedEvent(owner.ctx, owner.organization.id, { days: 0 });
    const cookies = await cookiesFor(owner.user.id);
    const email = `puerta.${Date.now()}@example.com`;

    const bad = await run(team.action, formRequest(PATH, { intent: "invite", email: "no-es-un-email", role: "staff" }, { cookies }));
    expect(bad.status).toBe(400);
    expect(bad.data.errors.email?.[0]).toMatch(/email/i);

    const invited = await run(team.action, formRequest(PATH, { intent: "invite", email: email.toUpperCase(), role: "staff" }, { cookies }));
    expect(invited.status).toBe(302);
    const mail = await lastEmailTo(email);
    expect(mail).toMatchObject({ kind: TEAM_INVITATION_EMAIL_KIND });
    const link = /https?:\/\/[^\s"]+\/organizacion\/operadores\/aceptar\/([A-Za-z0-9_-]+)/.exec(mail!.text ?? mail!.html)!;
    const token = link[1];
    const listed = await run(team.loader, getRequest(PATH, { cookies }));
    expect(listed.data.invitations.map((i: { email: string; roleLabel: string }) => [i.email, i.roleLabel])).toEqual([[email, "Staff de puerta"]]);
    expect(listed.data.table.find((r: { capability: string }) => r.capability === "door:operate").roles).toEqual({ owner: true, admin: true, operator: true, staff: true, marketing: false });

    // Someone without an account yet: the link first sends them to sign in (where they can create it), then back.
    const anonymous = await run(accept.loader, getRequest(`${PATH}/aceptar/${token}`), { token });
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe("/cuenta/iniciar-sesion/email?forcedLogin=true");
    expect(anonymous.cookies["loggin-callback"].value).toBe(`${PATH}/aceptar/${token}`);

    const newcomer = await createTestUser({ email });
    const newcomerCookies = await cookiesFor(newcomer.id);
    const preview = await run(accept.loader, getRequest(`${PATH}/aceptar/${token}`, { cookies: newcomerCookies }), { token });
    expect(preview.data.invitation).toMatchObject({ organizationName: owner.organization.name, roleLabel: "Staff de puerta" });
    const joined = await run(accept.action, formRequest(`${PATH}/aceptar/${token}`, {}, { cookies: newcomerCookies }), { token });
    expect(joined.status).toBe(302);
    const db = await getDb();
    const [membership] = await db.select().from(memberships).where(and(eq(memberships.organizationId, owner.organization.id), eq(memberships.userId, newcomer.id)));
    expect(membership.role).toBe("staff");
    // Once only.
    const twice = await run(accept.action, formRequest(`${PATH}/aceptar/${token}`, {}, { cookies: newcomerCookies }), { token });
    expect(twice.status).toBe(400);

    const staffCtx = await ctxAs(actorFor({ ...newcomer, roles: [] }));
    expect((await openDoor(staffCtx, { slug: event.slug })).userId).toBe(newcomer.id);
    const staffPage = await run(team.loader, getRequest(PATH, { cookies: newcomerCookies }));
    expect(staffPage.status).toBe(403);
  });

  it("roles: an admin manages operators and staff but not owners or admins; nobody changes their own role; the last owner stays", async () => {
    const owner = await createProducer();
    const db = await getDb();
    const admin = await createTestUser();
    const operator = await createTestUser();
    await db.insert(memberships).values([
      { organizationId: owner.organization.id, userId: admin.id, role: "admin" },
      { organizationId: owner.organization.id, userId: operator.id, role: "operator" },
    ]);
    // Changing roles asks for the second factor: without it, the person is sent to turn it on or confirm it.
    const unproved = await run(team.action, formRequest(PATH, { intent: "role", userId: operator.id, role: "staff" }, { cookies: await cookiesFor(admin.id) }));
    expect(unproved.status).toBe(302);
    expect(unproved.location).toBe("/cuenta/seguridad");
    const adminCookies = await cookiesFor(admin.id, { secondFactor: true });
    const ownerCookies = await cookiesFor(owner.user.id, { secondFactor: true });

    const promote = await run(team.action, formRequest(PATH, { intent: "role", userId: operator.id, role: "staff" }, { cookies: adminCookies }));
    expect(promote.status).toBe(302);
    const toAdmin = await run(team.action, formRequest(PATH, { intent: "role", userId: operator.id, role: "admin" }, { cookies: adminCookies }));
    expect(toAdmin.status).toBe(400);
    expect(toAdmin.data.formErrors).toEqual(["Solo un dueño puede cambiar dueños o admins."]);
    const removeOwner = await run(team.action, formRequest(PATH, { intent: "remove", userId: owner.user.id }, { cookies: adminCookies }));
    expect(removeOwner.status).toBe(400);
    const inviteOwner = await run(team.action, formRequest(PATH, { intent: "invite", email: "otro.duenio@example.com", role: "owner" }, { cookies: adminCookies }));
    expect(inviteOwner.status).toBe(400);

    const self = await run(team.action, formRequest(PATH, { intent: "role", userId: owner.user.id, role: "admin" }, { cookies: ownerCookies }));
    expect(self.data.formErrors).toEqual(["No podés cambiar tu propio rol: pedíselo a otro dueño."]);
    const leaveAsLastOwner = await run(team.action, formRequest(PATH, { intent: "remove", userId: owner.user.id }, { cookies: ownerCookies }));
    expect(leaveAsLastOwner.data.formErrors).toEqual(["La organización necesita al menos un dueño."]);

    const removed = await run(team.action, formRequest(PATH, { intent: "remove", userId: operator.id }, { cookies: ownerCookies }));
    expect(removed.status).toBe(302);
    expect(await db.select().from(memberships).where(and(eq(memberships.organizationId, owner.organization.id), eq(memberships.userId, operator.id)))).toHaveLength(0);
    const audits = await db.select().from(auditLog).where(eq(auditLog.targetId, operator.id));
    expect(audits.map((a) => a.action).sort()).toEqual(["team.change-role", "team.remove"]);

    const stranger = await createProducer();
    const foreign = await run(team.loader, getRequest(`${PATH}?organizationId=${owner.organization.id}`, { cookies: await cookiesFor(stranger.user.id) }));
    expect(foreign.status).toBe(403);
  });

  it("shows each member's real role: a promoter reads RRPP (as text, with where it is managed), marketing has Marketing chosen", async () => {
    const owner = await createProducer();
    const db = await getDb();
    const romi = await createTestUser({ firstName: "Romina", lastName: "Relacionista", nickname: `romi.${Date.now()}` });
    await makePromoter(owner.ctx, owner.organization.id, romi.id);
    const mara = await createTestUser({ firstName: "Mara", lastName: "Marketing" });
    await db.insert(memberships).values({ organizationId: owner.organization.id, userId: mara.id, role: "marketing" });

    const page = await run(team.loader, getRequest(PATH, { cookies: await cookiesFor(owner.user.id) }));
    const { html } = await renderInRouter(createElement(team.default), { url: PATH, loader: () => page.data });
    const rowOf = (name: string) => html.split("<li").map((row) => row.split("</li>")[0]).find((row) => row.includes(name))!;

    const promoterRow = rowOf("Romina Relacionista");
    expect(promoterRow).toContain(">RRPP<");
    expect(promoterRow).toContain("Grupos de RRPP");
    expect(promoterRow).not.toContain("<select");
    expect(promoterRow).not.toContain("Dueño");
    const marketingRow = rowOf("Mara Marketing");
    expect(marketingRow).toMatch(/<option value="marketing" selected="">Marketing<\/option>/);
    expect(marketingRow).not.toMatch(/<option value="owner" selected=""/);
    const ownRow = rowOf("(vos)");
    expect(ownRow).toContain(">Dueño<");
  });
});
