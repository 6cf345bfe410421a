/**
 * `/organizacion/resumen` for the roles that do not read sales (docs/team.md): each one reads what its role is
 * for and gets the links it can actually use, and each link opens (its page's loader answers 200 for them).
 * The roles that read sales keep the summary.
 */
import { createElement } from "react";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { MembershipRole } from "#server/db/schema";
import { eventDates, memberships } from "#server/db/schema";
import { getDb } from "#server/db/client";
import { listDoorEvents } from "#server/door/door-events";
import { actorFor, createTestUser, ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createProducer, createPublishedEvent, makePromoter } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import * as summary from "./organizacion.resumen";
import * as door from "./vivos.acreditacion.$slug";
import * as live from "./vivos.$slug";
import * as myGroup from "./organizacion.relaciones-publicas.mi-grupo";
import * as campaigns from "./organizacion.campanias-de-email";
import * as pixel from "./organizacion.marketing-pixel";

const PATH = "/organizacion/resumen";

async function organization() {
  const owner = await createProducer();
  const { event: tonight } = await createPublishedEvent(owner.ctx, owner.organization.id, { name: "Noche de Hoy", days: 0 });
  const { event: past } = await createPublishedEvent(owner.ctx, owner.organization.id, { name: "Fiesta Pasada", days: 20 });
  await (await getDb()).update(eventDates).set({ startsAt: new Date(Date.now() - 10 * 86400_000), endsAt: new Date(Date.now() - 10 * 86400_000 + 5 * 3600_000) }).where(eq(eventDates.eventId, past.id));
  const { event: draft } = await createPublishedEvent(owner.ctx, owner.organization.id, { name: "Borrador Secreto", days: 5, publish: false });
  return { owner, tonight, past, draft };
}

async function member(organizationId: string, role: MembershipRole) {
  const user = await createTestUser({ firstName: "Persona", nickname: `p.${role}.${Date.now()}` });
  await (await getDb()).insert(memberships).values({ organizationId, userId: user.id, role });
  return sessionCookiesFor(user.id);
}

/** The page as the person gets it: the loader's data, rendered. */
async function landing(cookies: Record<string, string>) {
  const page = await run(summary.loader, getRequest(PATH, { cookies }));
  expect(page.status).toBe(200);
  const { html } = await renderInRouter(createElement(summary.default), { url: PATH, loader: () => page.data });
  return { data: page.data, html };
}

const OLD_STAFF_TEXT = "Tu rol en esta organización es de staff";

describe("/organizacion/resumen by role", () => {
  it("staff: told they work the door, with each coming event's door screen and live view, which open for them", async () => {
    const { owner, tonight, past, draft } = await organization();
    const cookies = await member(owner.organization.id, "staff");
    const { html } = await landing(cookies);
    expect(html).toContain("Sos staff de puerta");
    expect(html).toContain(`href="/vivos/acreditacion/${tonight.slug}"`);
    expect(html).toContain(`href="/vivos/${tonight.slug}"`);
    expect(html).toContain("Noche de Hoy");
    expect(html).not.toContain(past.name);
    expect(html).not.toContain(draft.name);
    expect(html).not.toContain("/organizacion/campanias-de-email");
    expect(html).not.toContain("/organizacion/relaciones-publicas/mi-grupo");

    const doorPage = await run(door.loader, getRequest(`/vivos/acreditacion/${tonight.slug}`, { cookies }), { slug: tonight.slug });
    expect(doorPage.status).toBe(200);
    expect(doorPage.data).toMatchObject({ locked: false, event: { slug: tonight.slug } });
    const livePage = await run(live.loader, getRequest(`/vivos/${tonight.slug}`, { cookies }), { slug: tonight.slug });
    expect(livePage.status).toBe(200);
  });

  it("promoter: told they sell with their link, sent to their RRPP page (which opens), never told they are staff", async () => {
    const { owner, tonight } = await organization();
    const user = await createTestUser({ firstName: "Romina", nickname: `romi.${Date.now()}` });
    await makePromoter(owner.ctx, owner.organization.id, user.id);
    const cookies = await sessionCookiesFor(user.id);
    const { html } = await landing(cookies);
    expect(html).toContain("Sos RRPP");
    expect(html).toContain('href="/organizacion/relaciones-publicas/mi-grupo"');
    expect(html).not.toContain(OLD_STAFF_TEXT);
    expect(html).not.toContain("staff");
    expect(html).not.toContain(`/vivos/acreditacion/${tonight.slug}`);
    expect(html).not.toContain("/organizacion/campanias-de-email");
    expect((await run(myGroup.loader, getRequest("/organizacion/relaciones-publicas/mi-grupo", { cookies }))).status).toBe(200);
    // The door list is the domain's to refuse, not only a link left out.
    await expect(listDoorEvents(await ctxAs(actorFor({ ...user, roles: [] })), owner.organization.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("promoter lead: told they run their group, sent to it", async () => {
    const { owner } = await organization();
    const cookies = await member(owner.organization.id, "promoter_lead");
    const { html } = await landing(cookies);
    expect(html).toContain("Sos líder de RRPP");
    expect(html).toContain('href="/organizacion/relaciones-publicas/mi-grupo"');
    expect(html).not.toContain(OLD_STAFF_TEXT);
    expect(html).not.toContain("/vivos/acreditacion/");
  });

  it("marketing: told what marketing does, with campaigns, templates, sent emails and the pixel, which open", async () => {
    const { owner, tonight } = await organization();
    const cookies = await member(owner.organization.id, "marketing");
    const { html } = await landing(cookies);
    expect(html).toContain("Sos de marketing");
    for (const path of ["/organizacion/campanias-de-email", "/organizacion/campanias-de-email/plantillas", "/organizacion/log-emails", "/organizacion/marketing-pixel"]) {
      expect(html).toContain(`href="${path}"`);
    }
    expect(html).not.toContain(OLD_STAFF_TEXT);
    expect(html).not.toContain(`/vivos/acreditacion/${tonight.slug}`);
    expect(html).not.toContain("/organizacion/relaciones-publicas/mi-grupo");
    expect((await run(campaigns.loader, getRequest("/organizacion/campanias-de-email", { cookies }))).status).toBe(200);
    expect((await run(pixel.loader, getRequest("/organizacion/marketing-pixel", { cookies }))).status).toBe(200);
  });

  it("owner and operator keep the sales summary, without a role landing", async () => {
    const { owner } = await organization();
    for (const cookies of [await sessionCookiesFor(owner.user.id), await member(owner.organization.id, "operator")]) {
      const { data, html } = await landing(cookies);
      expect(data.landing).toBeNull();
      expect(data.sales).not.toBeNull();
      expect(html).not.toContain('data-testid="role-landing"');
      expect(html).toContain("Noche de Hoy");
    }
  });
});
