import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { BAD_CREDENTIALS, EMAIL_TAKEN } from "#server/accounts/auth";
import { BAD_CODE } from "#server/accounts/recovery";
import { BAD_LINK } from "#server/accounts/sign-in-link";
import { verifyAccessToken } from "#server/auth/tokens";
import { rotateRefreshToken } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { auditLog, emailLog, users } from "#server/db/schema";
import { SAVE_ERROR, SAVE_SUCCESS } from "#server/errors";
import { MESSAGES } from "#common/validation";
import { FORCED_LOGIN_PATH } from "#app/lib/session.server";
import { createTestUser } from "#tests/support/context";
import { cookiesAfter, formRequest, getRequest, run } from "#tests/support/remix";
import * as registro from "./cuenta.registro";
import * as loginEmail from "./cuenta.iniciar-sesion.email";
import * as signIn from "./cuenta.iniciar-sesion._index";
import * as enlace from "./cuenta.enlace";
import * as miCuenta from "./cuenta.mi-cuenta";
import * as cerrarSesion from "./cuenta.cerrar-sesion";
import * as imperson from "./cuenta.imperson";
import * as solicitar from "./cuenta.solicitar-recuperacion";
import * as recuperar from "./cuenta.recuperar";
import * as finalizarGoogle from "./cuenta.finalizar-google";
import * as google from "./cuenta.google._index";
import * as googleCallback from "./cuenta.google.callback";

const FIFTEEN_DAYS = 15 * 24 * 60 * 60;

/** Signs a user in through the login page and returns the cookies the browser would keep. */
async function signInAs(email: string, password = "clave-segura-1") {
  const result = await run(loginEmail.action, formRequest("/cuenta/iniciar-sesion/email", { email, password }, { ip: "192.0.2.200" }));
  expect(result.status).toBe(302);
  return cookiesAfter(result);
}

async function emailOf(accessToken: string) {
  const check = await verifyAccessToken(accessToken, new Date());
  return check.ok ? check.claims.email : null;
}

async function lastEmailTo(to: string) {
  const db = await getDb();
  const [row] = await db.select().from(emailLog).where(eq(emailLog.to, to)).orderBy(desc(emailLog.createdAt)).limit(1);
  return row;
}

describe("/cuenta/registro", () => {
  it("creates the account, sets at/rt for 15 days and goes home", async () => {
    const result = await run(
      registro.action,
      formRequest("/cuenta/registro", { firstName: "María José", lastName: "Núñez", email: "Maria.Registro@Example.com", password: "clave-segura-1" }),
    );
    expect(result.status).toBe(302);
    expect(result.location).toBe("/");
    expect(result.cookies.at.maxAge).toBe(FIFTEEN_DAYS);
    expect(result.cookies.rt.maxAge).toBe(FIFTEEN_DAYS);
    expect(result.cookies.at.attributes).toEqual(expect.arrayContaining(["Path=/", "HttpOnly", "SameSite=Lax"]));
    expect(await emailOf(result.cookies.at.value)).toBe("maria.registro@example.com");
  });

  it("goes back to the saved loggin-callback path and clears it", async () => {
    const result = await run(
      registro.action,
      formRequest(
        "/cuenta/registro",
        { firstName: "Juan", lastName: "Pérez", email: "juan.callback@example.com", password: "clave-segura-1" },
        { cookies: { "loggin-callback": "/eventos/la-fiesta?x=1" } },
      ),
    );
    expect(result.location).toBe("/eventos/la-fiesta?x=1");
    expect(result.cookies["loggin-callback"].maxAge).toBe(0);
  });

  it("answers 400 with the spec's messages next to each field, without echoing the password", async () => {
    const result = await run(registro.action, formRequest("/cuenta/registro", { firstName: "", lastName: " Pérez", email: "juan@", password: "corta" }));
    expect(result.status).toBe(400);
    expect(result.cookies.at).toBeUndefined();
    const { error, initialValue } = result.data.result;
    expect(error.firstName).toEqual([MESSAGES.required]);
    expect(error.firstName).toEqual(["Este campo es obligatorio"]);
    expect(error.lastName).toContain("Este campo no puede contener espacios al inicio o al final");
    expect(error.email).toEqual(["Este campo debe ser un email válido"]);
    expect(error.password).toEqual(["Este campo debe tener al menos 8 caracteres"]);
    expect(initialValue.email).toBe("juan@");
    expect(initialValue.password).toBeUndefined();
  });

  it("shows the domain's 'email taken' message next to the email", async () => {
    const existing = await createTestUser();
    const result = await run(
      registro.action,
      formRequest("/cuenta/registro", { firstName: "Otra", lastName: "Persona", email: existing.email.toUpperCase(), password: "clave-segura-2" }),
    );
    expect(result.status).toBe(400);
    expect(result.data.result.error.email).toEqual([EMAIL_TAKEN]);
    expect(result.cookies.rt).toBeUndefined();
  });
});

describe("/cuenta/iniciar-sesion/email", () => {
  it("tells a forced login apart", async () => {
    expect((await run(loginEmail.loader, getRequest(FORCED_LOGIN_PATH))).data.forcedLogin).toBe(true);
    expect((await run(loginEmail.loader, getRequest("/cuenta/iniciar-sesion/email"))).data.forcedLogin).toBe(false);
  });

  it("a protected page sends an anonymous visitor to the forced login, saving where they were going; signing in returns there", async () => {
    const user = await createTestUser();
    const forced = await run(miCuenta.loader, getRequest("/cuenta/mi-cuenta"));
    expect(forced.status).toBe(302);
    expect(forced.location).toBe("/cuenta/iniciar-sesion/email?forcedLogin=true");
    expect(forced.cookies["loggin-callback"].value).toBe("/cuenta/mi-cuenta");

    const jar = cookiesAfter(forced);
    const login = await run(loginEmail.action, formRequest(FORCED_LOGIN_PATH, { email: user.email, password: user.password }, { cookies: jar }));
    expect(login.status).toBe(302);
    expect(login.location).toBe("/cuenta/mi-cuenta");
    expect(login.cookies["loggin-callback"].maxAge).toBe(0);
    expect(await emailOf(login.cookies.at.value)).toBe(user.email);

    const page = await run(miCuenta.loader, getRequest("/cuenta/mi-cuenta", { cookies: cookiesAfter(login, jar) }));
    expect(page.status).toBe(200);
    expect(page.data.profile.email).toBe(user.email);
  });

  it("a wrong password gets the domain's message and no cookies", async () => {
    const user = await createTestUser();
    const result = await run(loginEmail.action, formRequest("/cuenta/iniciar-sesion/email", { email: user.email, password: "no-es-esta" }, { ip: "192.0.2.1" }));
    expect(result.status).toBe(400);
    expect(result.data.result.error.password).toEqual([BAD_CREDENTIALS]);
    expect(result.data.result.initialValue.password).toBeUndefined();
    expect(result.cookies.at).toBeUndefined();
  });

  it("after 5 failed attempts the domain's rate limit message shows above the form, even with the right password", async () => {
    const user = await createTestUser();
    for (let i = 0; i < 5; i++) {
      await run(loginEmail.action, formRequest("/cuenta/iniciar-sesion/email", { email: user.email, password: `mala-clave-${i}` }, { ip: "192.0.2.2" }));
    }
    const result = await run(loginEmail.action, formRequest("/cuenta/iniciar-sesion/email", { email: user.email, password: user.password }, { ip: "192.0.2.2" }));
    expect(result.status).toBe(429);
    expect(result.data.limited).toBe(true);
    expect(result.data.result.error[""]).toEqual(["Hiciste demasiados intentos. Esperá 15 minutos y volvé a probar."]);
    expect(result.cookies.at).toBeUndefined();
  });
});

describe("/cuenta/cerrar-sesion", () => {
  it("ends the session on the server, clears at/rt and goes home", async () => {
    const user = await createTestUser();
    const jar = await signInAs(user.email);
    const result = await run(cerrarSesion.action, formRequest("/cuenta/cerrar-sesion", {}, { cookies: jar }));
    expect(result.status).toBe(302);
    expect(result.location).toBe("/");
    expect(result.cookies.at.maxAge).toBe(0);
    expect(result.cookies.rt.maxAge).toBe(0);
    // The refresh token is dead: nobody can come back with it.
    await expect(rotateRefreshToken(await getDb(), jar.rt, new Date())).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("clears the cookies even when the tokens are garbage", async () => {
    const result = await run(cerrarSesion.action, formRequest("/cuenta/cerrar-sesion", {}, { cookies: { at: "no.es.un-jwt", rt: "basura" } }));
    expect(result.status).toBe(302);
    expect(result.location).toBe("/");
    expect(result.cookies.at.maxAge).toBe(0);
    expect(result.cookies.rt.maxAge).toBe(0);
  });

  it("follows redirectTo only when it is one of our paths", async () => {
    const ours = await run(cerrarSesion.action, formRequest("/cuenta/cerrar-sesion", { redirectTo: "/eventos/la-fiesta" }));
    expect(ours.location).toBe("/eventos/la-fiesta");
    const theirs = await run(cerrarSesion.action, formRequest("/cuenta/cerrar-sesion", { redirectTo: "//malo.example.com/robar" }));
    expect(theirs.location).toBe("/");
  });
});

describe("/cuenta/mi-cuenta", () => {
  it("saves the profile and comes back with the success snackbar", async () => {
    const user = await createTestUser({ nickname: "viejo.nick" });
    const jar = await signInAs(user.email);
    const result = await run(
      miCuenta.action,
      formRequest(
        "/cuenta/mi-cuenta",
        {
          firstName: "Sofía",
          lastName: "Peña Ríos",
          email: user.email,
          nickname: "",
          documentType: "dni",
          documentNumber: "30.123.456",
          address: "Av. Corrientes 1234",
          state: "AR-X",
          phoneNumber: "+54 9 351 555-1234",
        },
        { cookies: jar },
      ),
    );
    expect(result.status).toBe(302);
    expect(result.location).toBe("/cuenta/mi-cuenta");
    expect(JSON.parse(result.cookies.flash.value)).toEqual({ type: "success", message: SAVE_SUCCESS });
    expect(SAVE_SUCCESS).toBe("¡Todo genial! Guardamos tus datos");

    const page = await run(miCuenta.loader, getRequest("/cuenta/mi-cuenta", { cookies: jar }));
    expect(page.data.profile).toMatchObject({
      lastName: "Peña Ríos",
      nickname: "", // emptied in the form: cleared
      documentType: "dni",
      documentNumber: "30123456",
      state: "AR-X",
      phoneNumber: "+54 9 351 555-1234",
    });
  });

  it("bad input: 400, messages next to the fields and the save-error snackbar; nothing saved", async () => {
    const user = await createTestUser({ phoneNumber: "+54 11 4444-5555" });
    const jar = await signInAs(user.email);
    const result = await run(
      miCuenta.action,
      formRequest("/cuenta/mi-cuenta", { firstName: "Sofía", lastName: "", email: user.email, phoneNumber: "llamame", documentNumber: "12", state: "AR-XX" }, { cookies: jar }),
    );
    expect(result.status).toBe(400);
    expect(result.data.snackbar).toEqual({ type: "error", message: "Upppsss... parece que te faltó cargar algunos datos." });
    const { error } = result.data.result;
    expect(error.lastName).toEqual(["Este campo es obligatorio"]);
    expect(error.phoneNumber).toEqual(["Ingresá un número de teléfono válido"]);
    expect(error.documentNumber).toEqual(["Ingresá un número de documento válido"]);
    expect(error.state).toEqual([MESSAGES.province]);
    const [row] = await (await getDb()).select().from(users).where(eq(users.id, user.id));
    expect(row.phoneNumber).toBe("+54 11 4444-5555");
  });

  it("a domain refusal (email of another account) shows next to the email, with the save-error snackbar", async () => {
    const other = await createTestUser();
    const user = await createTestUser();
    const jar = await signInAs(user.email);
    const result = await run(
      miCuenta.action,
      formRequest("/cuenta/mi-cuenta", { firstName: "Sofía", lastName: "Peña", email: other.email }, { cookies: jar }),
    );
    expect(result.status).toBe(400);
    expect(result.data.result.error.email).toEqual(["Ya existe una cuenta con este email"]);
    expect(result.data.snackbar.message).toBe(SAVE_ERROR);
  });

  it("a document number without its type is refused by the domain next to the type", async () => {
    const user = await createTestUser();
    const jar = await signInAs(user.email);
    const result = await run(
      miCuenta.action,
      formRequest("/cuenta/mi-cuenta", { firstName: "Sofía", lastName: "Peña", email: user.email, documentNumber: "30123456", documentType: "" }, { cookies: jar }),
    );
    expect(result.status).toBe(400);
    expect(result.data.result.error.documentType).toEqual(["Este campo es obligatorio"]);
  });
});

describe("/cuenta/imperson", () => {
  it("anonymous visitors are sent to the forced login", async () => {
    const result = await run(imperson.loader, getRequest("/cuenta/imperson"));
    expect(result.location).toBe(FORCED_LOGIN_PATH);
    expect(result.cookies["loggin-callback"].value).toBe("/cuenta/imperson");
  });

  it("is refused to someone who is not an admin (403), page and form", async () => {
    const user = await createTestUser();
    const target = await createTestUser();
    const jar = await signInAs(user.email);
    const page = await run(imperson.loader, getRequest("/cuenta/imperson", { cookies: jar }));
    expect(page.status).toBe(403);
    expect(page.data.allowed).toBe(false);
    const post = await run(imperson.action, formRequest("/cuenta/imperson", { email: target.email }, { cookies: jar }));
    expect(post.status).toBe(403);
    expect(post.data.result.error[""]).toEqual(["Solo un administrador puede ingresar como otra persona."]);
    expect(post.cookies.at).toBeUndefined();
  });

  it("an admin becomes the other person (audited), and gets told when the email has no account", async () => {
    const admin = await createTestUser({ roles: ["admin"] });
    const target = await createTestUser();
    const jar = await signInAs(admin.email);
    expect((await run(imperson.loader, getRequest("/cuenta/imperson", { cookies: jar }))).data.allowed).toBe(true);

    const missing = await run(imperson.action, formRequest("/cuenta/imperson", { email: "nadie@example.com" }, { cookies: jar }));
    expect(missing.status).toBe(400);
    expect(missing.data.result.error.email).toEqual(["No encontramos un usuario con ese email."]);

    const result = await run(imperson.action, formRequest("/cuenta/imperson", { email: target.email }, { cookies: jar }));
    expect(result.status).toBe(302);
    expect(result.location).toBe("/");
    expect(await emailOf(result.cookies.at.value)).toBe(target.email);
    const audit = await (await getDb()).select().from(auditLog).where(and(eq(auditLog.actorId, admin.id), eq(auditLog.targetId, target.id)));
    expect(audit).toHaveLength(1);
  });
});

describe("password recovery", () => {
  it("asks for a code, then the code sets a new password and signs in", async () => {
    const user = await createTestUser();
    const asked = await run(solicitar.action, formRequest("/cuenta/solicitar-recuperacion", { email: user.email }, { ip: "192.0.2.30" }));
    expect(asked.status).toBe(302);
    expect(asked.location).toBe(`/cuenta/recuperar?email=${encodeURIComponent(user.email)}`);
    const code = /\b(\d{6})\b/.exec((await lastEmailTo(user.email)).text)![1];

    const wrong = await run(
      recuperar.action,
      formRequest("/cuenta/recuperar", { email: user.email, code: code === "000000" ? "111111" : "000000", password: "clave-nueva-1" }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.data.result.error.code).toEqual([BAD_CODE]);
    expect(wrong.data.result.initialValue.code).toBeUndefined();
    expect(wrong.data.result.initialValue.password).toBeUndefined();

    const done = await run(recuperar.action, formRequest("/cuenta/recuperar", { email: user.email, code, password: "clave-nueva-1" }));
    expect(done.status).toBe(302);
    expect(done.location).toBe("/");
    expect(await emailOf(done.cookies.at.value)).toBe(user.email);
    await signInAs(user.email, "clave-nueva-1");
  });

  it("answers the same for an email without an account", async () => {
    const result = await run(solicitar.action, formRequest("/cuenta/solicitar-recuperacion", { email: "nadie.recupera@example.com" }, { ip: "192.0.2.31" }));
    expect(result.status).toBe(302);
    expect(result.location).toBe("/cuenta/recuperar?email=nadie.recupera%40example.com");
    expect(await lastEmailTo("nadie.recupera@example.com")).toBeUndefined();
  });

  it("the recovery form checks its fields before calling the domain", async () => {
    const result = await run(recuperar.action, formRequest("/cuenta/recuperar", { email: "x@example.com", code: "", password: "123" }));
    expect(result.status).toBe(400);
    expect(result.data.result.error.code).toEqual(["Este campo es obligatorio"]);
    expect(result.data.result.error.password).toEqual(["Este campo debe tener al menos 8 caracteres"]);
  });
});

describe("sign-in link", () => {
  function tokenFrom(text: string) {
    return new URL(/https?:\/\/\S+/.exec(text)![0]).searchParams.get("token")!;
  }

  it("a new email: the page says the link creates the account; the link asks the name and signs in where they were going", async () => {
    const email = "nueva.persona@example.com";
    const sent = await run(signIn.action, formRequest("/cuenta/iniciar-sesion?index", { email }, { cookies: { "loggin-callback": "/eventos/rock" } }));
    expect(sent.status).toBe(200);
    expect(sent.data.sent).toMatchObject({ userFound: false, emailTo: email });
    const token = tokenFrom((await lastEmailTo(email)).text);

    const landing = await run(enlace.loader, getRequest(`/cuenta/enlace?token=${token}`));
    expect(landing.data).toMatchObject({ kind: "register", email });

    const badName = await run(enlace.action, formRequest(`/cuenta/enlace?token=${token}`, { token, firstName: "", lastName: "G4rcía" }));
    expect(badName.status).toBe(400);
    expect(badName.data.result.error.firstName).toEqual(["Este campo es obligatorio"]);
    expect(badName.data.result.error.lastName).toEqual([MESSAGES.name]);

    // Opened in another browser: no loggin-callback cookie, the link remembers the way back.
    const done = await run(enlace.action, formRequest(`/cuenta/enlace?token=${token}`, { token, firstName: "Nueva", lastName: "Persona" }));
    expect(done.status).toBe(302);
    expect(done.location).toBe("/eventos/rock");
    expect(await emailOf(done.cookies.at.value)).toBe(email);

    const again = await run(enlace.loader, getRequest(`/cuenta/enlace?token=${token}`));
    expect(again.status).toBe(410);
    expect(again.data).toMatchObject({ kind: "invalid", message: BAD_LINK });
  });

  it("an existing account: the link signs in after a confirmation, once", async () => {
    const user = await createTestUser();
    const sent = await run(signIn.action, formRequest("/cuenta/iniciar-sesion?index", { email: user.email }));
    expect(sent.data.sent.userFound).toBe(true);
    const token = tokenFrom((await lastEmailTo(user.email)).text);

    // Opening the page (or a mail scanner opening it) does not use the link.
    expect((await run(enlace.loader, getRequest(`/cuenta/enlace?token=${token}`))).data.kind).toBe("signin");
    expect((await run(enlace.loader, getRequest(`/cuenta/enlace?token=${token}`))).data.kind).toBe("signin");

    const done = await run(enlace.action, formRequest(`/cuenta/enlace?token=${token}`, { token, intent: "signin" }));
    expect(done.status).toBe(302);
    expect(done.location).toBe("/");
    expect(await emailOf(done.cookies.at.value)).toBe(user.email);

    const reused = await run(enlace.action, formRequest(`/cuenta/enlace?token=${token}`, { token, intent: "signin" }));
    expect(reused.status).toBe(400);
    expect(reused.data.result.error[""]).toEqual([BAD_LINK]);
    expect(reused.cookies.at).toBeUndefined();
  });

  it("a bad email is refused in the page, and nothing is sent", async () => {
    const result = await run(signIn.action, formRequest("/cuenta/iniciar-sesion?index", { email: "no es un email" }));
    expect(result.status).toBe(400);
    expect(result.data.result.error.email).toEqual(["Este campo no puede contener espacios"]);
    expect(result.data.sent).toBeNull();
  });
});

describe("/cuenta/finalizar-google", () => {
  it("asks only for the missing fields, saves them and goes on to the saved path", async () => {
    const user = await createTestUser({ passwordHash: null, firstName: "Lucía", lastName: null, documentType: null, documentNumber: null, phoneNumber: "+54 11 5555-1234" });
    const jar = { ...(await signInWithToken(user)), "loggin-callback": "/eventos/jazz" };
    const page = await run(finalizarGoogle.loader, getRequest("/cuenta/finalizar-google", { cookies: jar }));
    expect(page.status).toBe(200);
    expect(page.data.missing).toEqual(["lastName", "documentType", "documentNumber"]);

    const empty = await run(finalizarGoogle.action, formRequest("/cuenta/finalizar-google", { lastName: "", documentType: "", documentNumber: "" }, { cookies: jar }));
    expect(empty.status).toBe(400);
    expect(empty.data.result.error).toMatchObject({
      lastName: ["Este campo es obligatorio"],
      documentType: [MESSAGES.documentType],
      documentNumber: ["Este campo es obligatorio"],
    });
    expect(empty.data.snackbar.message).toBe(SAVE_ERROR);

    const saved = await run(
      finalizarGoogle.action,
      formRequest("/cuenta/finalizar-google", { lastName: "Fernández", documentType: "dni", documentNumber: "30123456" }, { cookies: jar }),
    );
    expect(saved.status).toBe(302);
    expect(saved.location).toBe("/eventos/jazz");
    expect(saved.cookies["loggin-callback"].maxAge).toBe(0);
    const [row] = await (await getDb()).select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ firstName: "Lucía", lastName: "Fernández", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" });

    // Nothing left to ask: the page just lets them through.
    const after = await run(finalizarGoogle.loader, getRequest("/cuenta/finalizar-google", { cookies: { at: jar.at, rt: jar.rt } }));
    expect(after.status).toBe(302);
    expect(after.location).toBe("/");
  });
});

describe("Google when it is not configured", () => {
  it("hides the button and the OAuth routes answer 404", async () => {
    expect((await run(signIn.loader, getRequest("/cuenta/iniciar-sesion"))).data.googleEnabled).toBe(false);
    expect((await run(google.loader, getRequest("/cuenta/google"))).status).toBe(404);
    expect((await run(googleCallback.loader, getRequest("/cuenta/google/callback?state=x&code=y"))).status).toBe(404);
  });
});

/** A session for a user without a password (as after Google), minted directly. */
async function signInWithToken(user: { id: string; email: string; roles: string[] }) {
  const { startSession } = await import("#server/auth/sessions");
  const tokens = await startSession(await getDb(), user, new Date());
  return { at: tokens.accessToken, rt: tokens.refreshToken };
}
