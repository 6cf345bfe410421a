import { afterAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { eventQueues, users } from "#server/db/schema";
import { queueMemory } from "#server/queue/memory";
import { createEventWithTickets, createProducer } from "#tests/support/factories";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as queuePage from "./organizacion.eventos.$slug.fila-virtual";

afterAll(() => queueMemory.forgetAll());

async function signedIn(userId: string) {
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  const tokens = await startSession(db, user, new Date());
  return { at: tokens.accessToken, rt: tokens.refreshToken };
}

describe("/organizacion/eventos/{slug}/fila-virtual", () => {
  it("turns the queue on with its opening, minutes and pace from a plain form, shows the live figures, and pauses and resumes", async () => {
    const made = await createEventWithTickets();
    const cookies = await signedIn(made.user.id);
    const slug = made.event.slug;
    const url = `/organizacion/eventos/${slug}/fila-virtual`;

    const empty = await run(queuePage.loader, getRequest(url, { cookies }), { slug });
    expect(empty.data.live).toBeNull();
    expect(empty.data.defaults).toMatchObject({ admissionMinutes: "10", pace: "auto", enabled: "" });

    // Wrong values come back next to their fields, in Spanish, with what was typed.
    const bad = await run(queuePage.action, formRequest(url, { intent: "save", enabled: "on", opensAt: "mañana", admissionMinutes: "diez", pace: "max", admitPerMinute: "" }, { cookies }), { slug });
    expect(bad.status).toBe(400);
    expect(bad.data.errors.opensAt).toEqual(["Ingresá la fecha y hora de apertura (dd/mm/aaaa hh:mm)."]);
    expect(bad.data.errors.admissionMinutes).toEqual(["Ingresá los minutos como un número entero."]);
    expect(bad.data.errors.admitPerMinute).toEqual(["Ingresá cuántas personas por minuto, como un número entero."]);
    const tooLong = await run(queuePage.action, formRequest(url, { intent: "save", enabled: "on", opensAt: "20/12/2030 12:00", admissionMinutes: "500", pace: "auto" }, { cookies }), { slug });
    expect(tooLong.status).toBe(400);
    expect(tooLong.data.errors.admissionMinutes).toEqual(["Como máximo 120 minutos."]);

    const saved = await run(queuePage.action, formRequest(url, { intent: "save", enabled: "on", opensAt: "20/12/2030 12:00", admissionMinutes: "15", pace: "max", admitPerMinute: "300" }, { cookies }), { slug });
    expect(saved.status).toBe(302);
    const [row] = await (await getDb()).select().from(eventQueues).where(eq(eventQueues.eventId, made.event.id));
    expect(row).toMatchObject({ enabled: true, admissionMinutes: 15, admitPerMinute: 300, paused: false });
    // 12:00 in Buenos Aires (UTC−3).
    expect(row.opensAt.toISOString()).toBe("2030-12-20T15:00:00.000Z");

    const live = await run(queuePage.loader, getRequest(url, { cookies }), { slug });
    expect(live.data.defaults).toMatchObject({ enabled: "on", opensAt: "20/12/2030 12:00", admissionMinutes: "15", pace: "max", admitPerMinute: "300" });
    expect(live.data.live).toMatchObject({ enabled: true, paused: false, opened: false, waiting: 0, admitted: 0, bought: 0, left: 0, paceLabel: "Hasta 300 por minuto", drawSeed: null });
    expect(live.data.live.drawCommitment).toMatch(/^[0-9a-f]{64}$/);

    await run(queuePage.action, formRequest(url, { intent: "pause" }, { cookies }), { slug });
    expect((await run(queuePage.loader, getRequest(url, { cookies }), { slug })).data.live.paused).toBe(true);
    await run(queuePage.action, formRequest(url, { intent: "resume" }, { cookies }), { slug });
    expect((await run(queuePage.loader, getRequest(url, { cookies }), { slug })).data.live.paused).toBe(false);
  });

  it("belongs to the event's organization: another organization's producer is refused (403), and saving changes nothing", async () => {
    const made = await createEventWithTickets();
    const other = await createProducer();
    const cookies = await signedIn(other.user.id);
    const slug = made.event.slug;
    const url = `/organizacion/eventos/${slug}/fila-virtual`;
    const seen = await run(queuePage.loader, getRequest(url, { cookies }), { slug });
    expect(seen.status).toBe(403);
    await run(queuePage.action, formRequest(url, { intent: "save", enabled: "on", opensAt: "20/12/2030 12:00", admissionMinutes: "10", pace: "auto" }, { cookies }), { slug }).catch(() => null);
    expect(await (await getDb()).select().from(eventQueues).where(eq(eventQueues.eventId, made.event.id))).toEqual([]);
  });
});
