import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { campaignRecipients, campaigns, emailLog, emailUnsubscribes, memberships } from "#server/db/schema";
import { acceptServiceConditions, createEvent, publishEvent } from "#server/events/events";
import { sendInvitation } from "#server/invitations/invitations";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createEventWithTickets, createProducer, daysFromNow } from "#tests/support/factories";
import { randomTag } from "#tests/support/random";
import { audienceMembers, cancelCampaign, CAMPAIGN_MESSAGES, createCampaign, getCampaign, RECIPIENTS_PER_RUN, runCampaign, scheduleCampaign, sendCampaignNow } from "./campaigns";
import { createTemplate, TEMPLATE_MESSAGES } from "./templates";
import { readUnsubscribeToken, unsubscribe, unsubscribeToken } from "./unsubscribe";

type Made = Awaited<ReturnType<typeof createEventWithTickets>>;

/** A paid (or only created) order of one ticket of `ticketName`, by `email`. */
async function buy(made: Made, email: string, options: { ticket?: string; firstName?: string; eventDateId?: string; pay?: boolean } = {}) {
  const { order, billing } = await createOrder(await ctxAs(), {
    eventSlug: made.event.slug,
    eventDateId: options.eventDateId,
    items: [{ ticketId: made.tickets[options.ticket ?? "General"].id, qty: 1 }],
    payer: { firstName: options.firstName ?? "Ana", lastName: "Gómez", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  if (options.pay !== false) await payInSandbox(await getDb(), billing.id, "approved");
  return order;
}

const mail = (name: string) => `${name}-${randomTag(6)}@example.com`;

async function template(made: { ctx: Made["ctx"]; organization: Made["organization"] }, body = "Hola {{nombre}}, te esperamos en {{evento}}.") {
  return createTemplate(made.ctx, { organizationId: made.organization.id, name: "Novedades", subject: "Novedades de {{organizacion}}", body });
}

async function campaignEmails(campaignId: string) {
  const db = await getDb();
  return db.select().from(emailLog).where(and(eq(emailLog.campaignId, campaignId), eq(emailLog.kind, "campaign")));
}

async function runToTheEnd(campaignId: string, now = new Date()) {
  const db = await getDb();
  for (let i = 0; i < 100; i++) {
    const result = await runCampaign(db, campaignId, now);
    if (!result.more) return;
  }
  throw new Error("the campaign never finished");
}

describe("audiences", () => {
  it("are exactly the paid buyers asked for: one per email whatever its case, no unpaid, gift or other organization's order, nobody unsubscribed", async () => {
    const made = await createEventWithTickets([
      { name: "General", price: 1_000_000, stock: 100 },
      { name: "VIP", price: 3_000_000, stock: 100 },
    ]);
    const db = await getDb();
    const other = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 10 }], { name: "Otro evento" });
    const secondEvent = await createEvent(made.ctx, {
      organizationId: made.organization.id,
      name: "Dos Fechas",
      description: "Dos noches.",
      category: "fiestas",
      venueName: "Teatro Flores",
      venueAddress: "Rivadavia 7806",
      city: "Buenos Aires",
      province: "AR-CF",
      dates: [
        { startsAt: daysFromNow(5).toISOString(), endsAt: new Date(daysFromNow(5).getTime() + 3 * 3600_000).toISOString() },
        { startsAt: daysFromNow(6).toISOString(), endsAt: new Date(daysFromNow(6).getTime() + 3 * 3600_000).toISOString() },
      ],
      ticketTypes: [{ name: "General", price: 1_000_000, stock: 100 }],
    });
    await acceptServiceConditions(made.ctx, { eventId: secondEvent.event.id });
    await publishEvent(made.ctx, { id: secondEvent.event.id });
    const second = { ...made, event: secondEvent.event, tickets: { General: (await db.query.ticketTypes.findFirst({ where: (t, { eq: equals }) => equals(t.eventId, secondEvent.event.id) }))! } } as unknown as Made;

    const ana = mail("ana");
    const bob = mail("bob");
    const vip = mail("vip");
    const unpaid = mail("unpaid");
    const gifted = mail("gift");
    const gone = mail("gone");
    const firstNight = mail("noche1");
    const secondNight = mail("noche2");
    await buy(made, ana.toUpperCase(), { firstName: "Ana" });
    await buy(made, ana, { firstName: "Anita" });
    await buy(made, bob, { firstName: "Bob" });
    await buy(made, vip, { ticket: "VIP", firstName: "Vico" });
    await buy(made, unpaid, { pay: false });
    await buy(made, gone);
    await sendInvitation(made.ctx, { eventId: made.event.id, email: gifted, firstName: "Gina", lastName: "Paz", qty: "1", ticketTypeId: made.tickets.General.id });
    await db.insert(emailUnsubscribes).values({ organizationId: made.organization.id, email: gone, source: "page" });
    await buy(second, firstNight, { eventDateId: secondEvent.dates[0].id });
    await buy(second, secondNight, { eventDateId: secondEvent.dates[1].id });
    await buy(other, mail("stranger"));
    const promoter = await createTestUser({ firstName: "Pato" });
    const lead = await createTestUser({ firstName: "Lía" });
    await db.insert(memberships).values([
      { organizationId: made.organization.id, userId: promoter.id, role: "promoter" },
      { organizationId: made.organization.id, userId: lead.id, role: "promoter_lead" },
    ]);

    const org = made.organization.id;
    const emails = async (a: Parameters<typeof audienceMembers>[1]) => (await audienceMembers(db, a)).map((m) => m.email).sort();
    expect(await emails({ organizationId: org, audience: "event", eventId: made.event.id })).toEqual([ana, bob, vip].sort());
    expect(await emails({ organizationId: org, audience: "ticket_type", ticketTypeId: made.tickets.VIP.id })).toEqual([vip]);
    expect(await emails({ organizationId: org, audience: "event_date", eventDateId: secondEvent.dates[1].id })).toEqual([secondNight]);
    expect(await emails({ organizationId: org, audience: "organization" })).toEqual([ana, bob, vip, firstNight, secondNight].sort());
    expect(await emails({ organizationId: org, audience: "promoters" })).toEqual([promoter.email, lead.email].map((e) => e.toLowerCase()).sort());
    // The name is the latest order's.
    expect((await audienceMembers(db, { organizationId: org, audience: "event", eventId: made.event.id })).find((m) => m.email === ana)?.firstName).toBe("Anita");

    // Another organization's event, date or ticket type is refused as an audience.
    const stranger = await createEventWithTickets();
    const tpl = await template(stranger);
    await expect(createCampaign(stranger.ctx, { organizationId: stranger.organization.id, name: "Robo", templateId: tpl.id, audience: "event", eventId: made.event.id })).rejects.toMatchObject({
      fieldErrors: { audience: [CAMPAIGN_MESSAGES.audienceNotFound] },
    });
    await expect(createCampaign(stranger.ctx, { organizationId: stranger.organization.id, name: "Robo", templateId: tpl.id, audience: "ticket_type", ticketTypeId: made.tickets.VIP.id })).rejects.toMatchObject({
      fieldErrors: { audience: [CAMPAIGN_MESSAGES.audienceNotFound] },
    });
  });
});

describe("sending a campaign", () => {
  async function campaignFor(buyers: number) {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 500 }]);
    const people = Array.from({ length: buyers }, (_, i) => mail(`p${String(i).padStart(3, "0")}`));
    for (const email of people) await buy(made, email);
    const tpl = await template(made);
    const campaign = await createCampaign(made.ctx, { organizationId: made.organization.id, name: "Preventa", templateId: tpl.id, audience: "event", eventId: made.event.id });
    return { made, people, campaign };
  }

  it("sends each recipient exactly one email with a working unsubscribe link and the one-click headers, even when the job runs twice", async () => {
    const { made, people, campaign } = await campaignFor(3);
    const view = await getCampaign(made.ctx, campaign.id);
    expect(view.audienceSize).toBe(3);
    await sendCampaignNow(made.ctx, campaign.id);
    await expect(sendCampaignNow(made.ctx, campaign.id)).rejects.toMatchObject({ code: "CONFLICT" });
    const db = await getDb();
    const now = new Date();
    // Two runs at once, then again: the same recipients, claimed once each.
    await Promise.all([runCampaign(db, campaign.id, now), runCampaign(db, campaign.id, now)]);
    await runToTheEnd(campaign.id);
    const emails = await campaignEmails(campaign.id);
    expect(emails.map((e) => e.to).sort()).toEqual([...people].sort());
    const done = await getCampaign(made.ctx, campaign.id);
    expect(done.campaign.status).toBe("done");
    expect(done.counts).toEqual({ pending: 0, sent: 3, failed: 0, skipped: 0 });

    const first = emails[0];
    expect(first.subject).toBe(`Novedades de ${made.organization.name}`);
    expect(first.html).toContain(`te esperamos en ${made.event.name}`);
    expect(first.organizationId).toBe(made.organization.id);
    const token = unsubscribeToken(made.organization.id, first.to);
    expect(first.headers).toEqual({ "List-Unsubscribe": `<http://localhost:3000/correos/baja/${token}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    expect(first.html).toContain(`/correos/baja/${token}`);
    expect(first.text).toContain(`/correos/baja/${token}`);
    expect(readUnsubscribeToken(token)).toEqual({ organizationId: made.organization.id, email: first.to });
  });

  it("after a crash midway, running again sends the rest and nobody twice", async () => {
    const { made, people, campaign } = await campaignFor(5);
    await sendCampaignNow(made.ctx, campaign.id);
    const db = await getDb();
    // The worst moment: the third email went out but the process died before marking it sent.
    await expect(
      runCampaign(db, campaign.id, new Date(), {
        afterSend: (n) => {
          if (n === 3) throw new Error("se cortó la luz");
        },
      }),
    ).rejects.toThrow("se cortó la luz");
    const midway = await db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, campaign.id));
    expect(midway.filter((r) => r.status === "sent")).toHaveLength(2);
    expect(midway.filter((r) => r.status === "sending")).toHaveLength(1);
    expect(await campaignEmails(campaign.id)).toHaveLength(3);

    await runToTheEnd(campaign.id);
    await runToTheEnd(campaign.id);
    const emails = await campaignEmails(campaign.id);
    expect(emails.map((e) => e.to).sort()).toEqual([...people].sort());
    const done = await getCampaign(made.ctx, campaign.id);
    expect(done.campaign.status).toBe("done");
    expect(done.counts).toEqual({ pending: 0, sent: 5, failed: 0, skipped: 0 });
  });

  it("a run killed while holding the campaign: once its hold expires the next run recovers, and a claimed recipient that never got logged is sent then", async () => {
    const { made, people, campaign } = await campaignFor(2);
    await sendCampaignNow(made.ctx, campaign.id);
    const db = await getDb();
    const now = new Date();
    // As a SIGKILL leaves it: one recipient claimed, nothing logged, the hold still on.
    const [first] = await db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, campaign.id)).orderBy(campaignRecipients.email).limit(1);
    await db.update(campaignRecipients).set({ status: "sending", claimedAt: now }).where(eq(campaignRecipients.id, first.id));
    await db.update(campaigns).set({ runLockedUntil: new Date(now.getTime() + 60_000) }).where(eq(campaigns.id, campaign.id));
    expect(await runCampaign(db, campaign.id, now)).toEqual({ sent: 0, failed: 0, skipped: 0, more: false });
    expect(await campaignEmails(campaign.id)).toHaveLength(0);
    await runToTheEnd(campaign.id, new Date(now.getTime() + 3 * 60_000));
    expect((await campaignEmails(campaign.id)).map((e) => e.to).sort()).toEqual([...people].sort());
  });

  it("sends in batches: each run at most RECIPIENTS_PER_RUN, the progress counts as it goes", async () => {
    const { made, campaign } = await campaignFor(0);
    const db = await getDb();
    // Buyers in bulk would be slow: the recipients are what counts here.
    await sendCampaignNow(made.ctx, campaign.id).catch((e) => expect(e.message).toBe(CAMPAIGN_MESSAGES.nobody));
    await db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaign.id));
    const total = RECIPIENTS_PER_RUN + 20;
    await db.insert(campaignRecipients).values(Array.from({ length: total }, (_, i) => ({ campaignId: campaign.id, email: `bulk${i}-${randomTag(4)}@example.com`, firstName: "X" })));
    const firstRun = await runCampaign(db, campaign.id, new Date());
    expect(firstRun).toMatchObject({ sent: RECIPIENTS_PER_RUN, more: true });
    const midway = await getCampaign(made.ctx, campaign.id);
    expect(midway.counts).toMatchObject({ sent: RECIPIENTS_PER_RUN, pending: 20 });
    await runToTheEnd(campaign.id);
    expect(await campaignEmails(campaign.id)).toHaveLength(total);
  });

  it("someone who unsubscribes after the send started is skipped; unsubscribing twice is once", async () => {
    const { made, people, campaign } = await campaignFor(2);
    await sendCampaignNow(made.ctx, campaign.id);
    const db = await getDb();
    const [leaver] = [...people].sort();
    await unsubscribe(db, unsubscribeToken(made.organization.id, leaver), { source: "one-click", now: new Date() });
    await unsubscribe(db, unsubscribeToken(made.organization.id, leaver), { source: "page", now: new Date() });
    await runToTheEnd(campaign.id);
    expect((await campaignEmails(campaign.id)).map((e) => e.to)).toEqual(people.filter((p) => p !== leaver));
    expect((await getCampaign(made.ctx, campaign.id)).counts).toEqual({ pending: 0, sent: 1, failed: 0, skipped: 1 });
  });

  it("schedules in Buenos Aires time, does nothing before the time, can be cancelled, and starts by itself when due", async () => {
    const { made, people, campaign } = await campaignFor(1);
    const db = await getDb();
    await expect(scheduleCampaign(made.ctx, { id: campaign.id, sendAt: "2020-01-01T10:00" })).rejects.toMatchObject({ fieldErrors: { sendAt: [CAMPAIGN_MESSAGES.sendAtPast] } });
    await expect(scheduleCampaign(made.ctx, { id: campaign.id, sendAt: "mañana" })).rejects.toMatchObject({ fieldErrors: { sendAt: [CAMPAIGN_MESSAGES.sendAtInvalid] } });
    const scheduled = await scheduleCampaign(made.ctx, { id: campaign.id, sendAt: "2099-03-10T21:30" });
    expect(scheduled.scheduledAt?.toISOString()).toBe("2099-03-11T00:30:00.000Z");
    await runCampaign(db, campaign.id, new Date());
    expect(await campaignEmails(campaign.id)).toHaveLength(0);
    await cancelCampaign(made.ctx, campaign.id);
    await runCampaign(db, campaign.id, new Date("2099-03-11T01:00:00Z"));
    expect(await campaignEmails(campaign.id)).toHaveLength(0);
    await expect(cancelCampaign(made.ctx, campaign.id)).rejects.toMatchObject({ message: CAMPAIGN_MESSAGES.notScheduled });
    // As the back office's control sends it (dd/mm/aaaa hh:mm): the same instant.
    expect((await scheduleCampaign(made.ctx, { id: campaign.id, sendAt: "10/03/2099 21:30" })).scheduledAt?.toISOString()).toBe("2099-03-11T00:30:00.000Z");
    await runToTheEnd(campaign.id, new Date("2099-03-11T01:00:00Z"));
    expect((await campaignEmails(campaign.id)).map((e) => e.to)).toEqual(people);
    await expect(cancelCampaign(made.ctx, campaign.id)).rejects.toMatchObject({ message: CAMPAIGN_MESSAGES.notEditable });
  });

  it("a template with event variables needs an event; an organization-wide campaign may name one", async () => {
    const made = await createEventWithTickets();
    const tpl = await template(made);
    await expect(createCampaign(made.ctx, { organizationId: made.organization.id, name: "Todos", templateId: tpl.id, audience: "organization" })).rejects.toMatchObject({
      fieldErrors: { eventId: [TEMPLATE_MESSAGES.needsEvent(["evento"])] },
    });
    const ok = await createCampaign(made.ctx, { organizationId: made.organization.id, name: "Todos", templateId: tpl.id, audience: "organization", eventId: made.event.id });
    expect(ok).toMatchObject({ audience: "organization", eventId: made.event.id, status: "draft" });
  });
});

describe("who may run campaigns", () => {
  it("owners, admins and marketing; not operators, staff nor promoters; nobody of another organization", async () => {
    const made = await createEventWithTickets();
    const tpl = await template(made);
    const db = await getDb();
    const input = { organizationId: made.organization.id, name: "X", templateId: tpl.id, audience: "event", eventId: made.event.id };
    for (const role of ["operator", "staff", "promoter"] as const) {
      const user = await createTestUser();
      await db.insert(memberships).values({ organizationId: made.organization.id, userId: user.id, role });
      await expect(createCampaign(await ctxAs(actorFor({ ...user, roles: [] })), input)).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    const marketer = await createTestUser();
    await db.insert(memberships).values({ organizationId: made.organization.id, userId: marketer.id, role: "marketing" });
    const campaign = await createCampaign(await ctxAs(actorFor({ ...marketer, roles: [] })), input);
    const stranger = await createProducer();
    await expect(getCampaign(stranger.ctx, campaign.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(sendCampaignNow(stranger.ctx, campaign.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(createCampaign(stranger.ctx, { ...input, organizationId: stranger.organization.id })).rejects.toMatchObject({ fieldErrors: { templateId: [CAMPAIGN_MESSAGES.templateOther] } });
  });
});
