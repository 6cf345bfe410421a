import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { users } from "#server/db/schema";
import { createTestUser, sessionCookiesFor } from "#tests/support/context";
import { lastEmailTo } from "#tests/support/mailbox";
import { randomTag } from "#tests/support/random";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as myAccount from "./cuenta.mi-cuenta";
import * as registration from "./cuenta.registro";
import * as verify from "./cuenta.verificar-email";

const tokenOf = (text: string) => /[?&]token=([^\s&"<]+)/.exec(text)![1];

describe("email verification pages (decision 115)", () => {
  it("registration says a confirmation email went out (and where to read it without SMTP); the link confirms the address", async () => {
    const email = `registro-${randomTag()}@example.com`;
    const result = await run(registration.action, formRequest("/cuenta/registro", { firstName: "Ana", lastName: "Gómez", email, password: "clave-segura-1" }, { ip: "127.0.0.1" }));
    expect(result.status).toBe(302);
    const flash = JSON.parse(result.cookies.flash.value);
    expect(flash.message).toContain(`Te mandamos un correo a ${email} para confirmar tu email.`);
    // Tests run outside production without SMTP: the mailbox is open, so the message says where the email is.
    expect(flash.message).toContain("lo podés leer en /dev/correos/");

    const mail = await lastEmailTo(email, "email-verification");
    const page = await run(verify.loader, getRequest(`/cuenta/verificar-email?token=${tokenOf(mail.text)}`));
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ ok: true, email, alreadyVerified: false, joinedOrders: 0 });
    expect(page.headers.get("cache-control")).toBe("no-store");
    const [user] = await (await getDb()).select().from(users).where(eq(users.email, email));
    expect(user.emailVerifiedAt).not.toBeNull();
  });

  it("a bad or expired link is a 400 with the reason, never a crash", async () => {
    const page = await run(verify.loader, getRequest("/cuenta/verificar-email?token=roto"));
    expect(page.status).toBe(400);
    expect(page.data).toMatchObject({ ok: false, error: "El enlace para confirmar tu email no es válido o ya venció. Pedí uno nuevo desde Mi cuenta." });
  });

  it("Mi cuenta shows an unconfirmed email and sends the link again from there", async () => {
    const user = await createTestUser();
    const cookies = await sessionCookiesFor(user.id);
    const before = await run(myAccount.loader, getRequest("/cuenta/mi-cuenta", { cookies }));
    expect(before.data.emailVerified).toBe(false);
    const sent = await run(myAccount.action, formRequest("/cuenta/mi-cuenta", { intent: "verificar-email" }, { cookies }));
    expect(sent.status).toBe(200);
    expect(sent.data.verification).toMatchObject({ sentTo: user.email, error: null, mailbox: expect.stringMatching(/^\/dev\/correos\//) });
    const mail = await lastEmailTo(user.email, "email-verification");
    await run(verify.loader, getRequest(`/cuenta/verificar-email?token=${tokenOf(mail.text)}`));
    const after = await run(myAccount.loader, getRequest("/cuenta/mi-cuenta", { cookies }));
    expect(after.data.emailVerified).toBe(true);
    const again = await run(myAccount.action, formRequest("/cuenta/mi-cuenta", { intent: "verificar-email" }, { cookies }));
    expect(again.status).toBe(400);
    expect(again.data.verification.error).toBe("Tu email ya está confirmado.");
  });
});
