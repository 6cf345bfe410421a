import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "#server/db/client";
import { emailLog } from "#server/db/schema";
import { sendEmail } from "#server/email/send";
import { signInLinkEmail } from "#server/email/templates";
import { extractLinks } from "#app/lib/dev-mailbox.server";
import { getRequest, run } from "#tests/support/remix";
import * as list from "./dev.correos._index";
import * as detail from "./dev.correos.$id";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("/dev/correos", () => {
  it("lists the logged emails newest first, with the date in Buenos Aires time", async () => {
    const db = await getDb();
    await db.insert(emailLog).values([
      { to: "a@example.com", subject: "Primero", kind: "recovery-code", html: "<p>1</p>", text: "1", createdAt: new Date("2025-03-10T15:04:00Z") },
      { to: "b@example.com", subject: "Segundo", kind: "sign-in-link", html: "<p>2</p>", text: "2", createdAt: new Date("2025-03-10T23:30:00Z") },
    ]);
    const result = await run(list.loader, getRequest("/dev/correos"));
    const rows = result.data.emails.filter((e: { to: string }) => ["a@example.com", "b@example.com"].includes(e.to));
    expect(rows.map((e: { subject: string }) => e.subject)).toEqual(["Segundo", "Primero"]);
    // UTC−3: 23:30Z on the 10th is 20:30 on the 10th; 15:04Z is 12:04.
    expect(rows[0]).toMatchObject({ to: "b@example.com", kind: "sign-in-link", createdAt: "20:30 - 10/03/2025" });
    expect(rows[1].createdAt).toBe("12:04 - 10/03/2025");

    const filtered = await run(list.loader, getRequest("/dev/correos?to=A@Example.com"));
    expect(filtered.data.emails.map((e: { subject: string }) => e.subject)).toEqual(["Primero"]);
  });

  it("shows one email's HTML (links open in the whole window), its text and its links", async () => {
    const db = await getDb();
    const link = "http://localhost:3000/cuenta/enlace?token=abc&x=1";
    const { logEmailId } = await sendEmail(db, { to: "c@example.com", kind: "sign-in-link", ...signInLinkEmail(link, true) });
    const result = await run(detail.loader, getRequest(`/dev/correos/${logEmailId}`), { id: logEmailId });
    const email = result.data.email;
    expect(email.subject).toBe("Tu enlace para ingresar a Tribuna");
    expect(email.links).toEqual([link]);
    expect(email.text).toContain(link);
    expect(email.html.startsWith('<!doctype html><base target="_top">')).toBe(true);
  });

  it("lists a link written inside parentheses without the closing one", () => {
    const text = "Mirá el evento (https://tribuna.ar/eventos/la-pena). Más en https://tribuna.ar/ayuda, o https://es.wikipedia.org/wiki/Peña_(música).";
    expect(extractLinks("", text)).toEqual(["https://tribuna.ar/eventos/la-pena", "https://tribuna.ar/ayuda", "https://es.wikipedia.org/wiki/Peña_(música)"]);
  });

  it("answers 404 for an unknown or malformed id", async () => {
    expect((await run(detail.loader, getRequest("/dev/correos/x"), { id: "x" })).status).toBe(404);
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await run(detail.loader, getRequest(`/dev/correos/${unknown}`), { id: unknown })).status).toBe(404);
  });

  it("is not there in production for other machines, unless ENABLE_DEV_MAILBOX=true", async () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("SMTP_URL", "");
    vi.stubEnv("ENABLE_DEV_MAILBOX", "");
    vi.resetModules();
    const prod = await import("./dev.correos._index");
    expect((await run(prod.loader, getRequest("/dev/correos"))).status).toBe(404);

    vi.stubEnv("ENABLE_DEV_MAILBOX", "true");
    vi.resetModules();
    const enabled = await import("./dev.correos._index");
    expect((await run(enabled.loader, getRequest("/dev/correos"))).status).toBe(200);
  });

  it("in production without SMTP (npm start), opens for a request from this same machine only (decision 114)", async () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("SMTP_URL", "");
    vi.stubEnv("ENABLE_DEV_MAILBOX", "");
    vi.stubEnv("TRUST_PROXY", "");
    vi.resetModules();
    const prod = await import("./dev.correos._index");
    const one = await import("./dev.correos.$id");
    for (const ip of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) expect((await run(prod.loader, getRequest("/dev/correos", { ip }))).status, ip).toBe(200);
    expect((await run(one.loader, getRequest("/dev/correos/x", { ip: "127.0.0.1" }), { id: "x" })).status).toBe(404);
    for (const ip of ["192.168.0.10", "198.51.100.10", "10.0.0.2"]) expect((await run(prod.loader, getRequest("/dev/correos", { ip }))).status, ip).toBe(404);
    // A proxy on this machine: the socket is loopback but the request came from elsewhere.
    const proxied = getRequest("/dev/correos", { ip: "127.0.0.1", headers: { "x-forwarded-for": "203.0.113.9" } });
    expect((await run(prod.loader, proxied)).status).toBe(404);

    // With SMTP the emails leave: the mailbox stays closed even locally; ENABLE_DEV_MAILBOX=false closes it too.
    vi.stubEnv("SMTP_URL", "smtp://usuario:clave@localhost:2525");
    vi.resetModules();
    const withSmtp = await import("./dev.correos._index");
    expect((await run(withSmtp.loader, getRequest("/dev/correos", { ip: "127.0.0.1" }))).status).toBe(404);
    vi.stubEnv("SMTP_URL", "");
    vi.stubEnv("ENABLE_DEV_MAILBOX", "false");
    vi.resetModules();
    const off = await import("./dev.correos._index");
    expect((await run(off.loader, getRequest("/dev/correos", { ip: "127.0.0.1" }))).status).toBe(404);
  });

  it("pages that send an email say where to read it only when no SMTP is configured and the visitor may open the mailbox", async () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("SMTP_URL", "");
    vi.stubEnv("ENABLE_DEV_MAILBOX", "");
    vi.resetModules();
    const { mailboxLink } = await import("#app/lib/dev-mailbox.server");
    expect(mailboxLink(getRequest("/", { ip: "127.0.0.1" }), { to: "a+b@example.com" })).toBe("/dev/correos?to=a%2Bb%40example.com");
    expect(mailboxLink(getRequest("/", { ip: "127.0.0.1" }), { id: "123" })).toBe("/dev/correos/123");
    expect(mailboxLink(getRequest("/", { ip: "198.51.100.10" }), { to: "a@example.com" })).toBeNull();
    vi.stubEnv("SMTP_URL", "smtp://usuario:clave@localhost:2525");
    vi.resetModules();
    const withSmtp = await import("#app/lib/dev-mailbox.server");
    expect(withSmtp.mailboxLink(getRequest("/", { ip: "127.0.0.1" }))).toBeNull();
  });
});
