import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { eventLiveQr, events, users } from "#server/db/schema";
import { createEventWithTickets } from "#tests/support/factories";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as liveQrPage from "./organizacion.eventos.$slug.qr-dinamico";

async function signedIn(userId: string) {
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  const tokens = await startSession(db, user, new Date());
  return { at: tokens.accessToken, rt: tokens.refreshToken };
}

describe("/organizacion/eventos/{slug}/qr-dinamico", () => {
  it("shows the default, saves the choice and the reveal hours from a plain form, and says what is wrong next to the field", async () => {
    const made = await createEventWithTickets();
    const db = await getDb();
    await db.update(events).set({ oneHolderPerTicket: true }).where(eq(events.id, made.event.id));
    const cookies = await signedIn(made.user.id);
    const slug = made.event.slug;
    const url = `/organizacion/eventos/${slug}/qr-dinamico`;

    const first = await run(liveQrPage.loader, getRequest(url, { cookies }), { slug });
    expect(first.data).toMatchObject({ chosen: false, defaultEnabled: true, defaults: { enabled: "on", staticCodeRevealHours: "24" } });

    const bad = await run(liveQrPage.action, formRequest(url, { enabled: "on", staticCodeRevealHours: "un día" }, { cookies }), { slug });
    expect(bad.status).toBe(400);
    expect(bad.data.errors.staticCodeRevealHours).toEqual(["Escribí las horas como un número entero de 0 a 168."]);
    const tooMany = await run(liveQrPage.action, formRequest(url, { enabled: "on", staticCodeRevealHours: "500" }, { cookies }), { slug });
    expect(tooMany.status).toBe(400);
    expect(tooMany.data.errors.staticCodeRevealHours).toEqual(["Las horas van de 0 a 168 (una semana), en números enteros."]);

    // Unchecked box: off, by the organizer's choice.
    const saved = await run(liveQrPage.action, formRequest(url, { staticCodeRevealHours: "6" }, { cookies }), { slug });
    expect(saved.status).toBe(302);
    const [row] = await db.select().from(eventLiveQr).where(eq(eventLiveQr.eventId, made.event.id));
    expect(row).toMatchObject({ enabled: false, staticCodeRevealHours: 6 });
    const after = await run(liveQrPage.loader, getRequest(url, { cookies }), { slug });
    expect(after.data).toMatchObject({ chosen: true, defaults: { enabled: "", staticCodeRevealHours: "6" } });
  });
});
