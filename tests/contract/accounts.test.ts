/**
 * The spec's account contract (section 7) over HTTP: real Requests to
 * /api/graphql through the Remix route, real database, exact operation names,
 * arguments and fields.
 */
import { describe, expect, it } from "vitest";
import { isSessionActive, startSession, type Tokens } from "#server/auth/sessions";
import { ACCESS_TOKEN_TTL_SECONDS, verifyAccessToken } from "#server/auth/tokens";
import { getDb } from "#server/db/client";
import { memberships, organizations } from "#server/db/schema";
import { createTestUser } from "#tests/support/context";
import { GRAPHQL_URL, errorCode, gql, gqlGet, postRaw, send, setCookieValue } from "#tests/support/graphql";
import { lastEmailTo, lastRecoveryCode, lastSignInToken } from "#tests/support/mailbox";

const CURRENT = /* GraphQL */ `
  query Current {
    current { lastName firstName email isOrganizer isAdmin nickname documentNumber documentType address state }
  }
`;
const TOKENS = "accessToken refreshToken";
const SPANISH_UNAUTHENTICATED = "Necesitás iniciar sesión para continuar.";

let ipCounter = 0;
const freshIp = () => `100.64.0.${++ipCounter}`;

async function tokensFor(user: { id: string; email: string; roles: string[] }, now = new Date()): Promise<Tokens> {
  return startSession(await getDb(), user, now);
}

async function sessionIdOf(accessToken: string) {
  const check = await verifyAccessToken(accessToken, new Date());
  if (!check.ok) throw new Error(check.reason);
  return check.claims.sid!;
}

async function emailOfToken(accessToken: string) {
  const check = await verifyAccessToken(accessToken, new Date());
  return check.ok ? check.claims.email : null;
}

describe("authentication over HTTP", () => {
  it("answers `current` without tokens with UNAUTHENTICATED (the client then goes to the forced login)", async () => {
    const result = await gql(CURRENT);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      data: { current: null },
      errors: [{ message: SPANISH_UNAUTHENTICATED, path: ["current"], locations: expect.any(Array), extensions: { code: "UNAUTHENTICATED" } }],
    });
  });

  it("hands new tokens back in the body, in x-access-token / x-refresh-token, and as at/rt cookies", async () => {
    const result = await gql<{ register: Tokens }>(
      `mutation Register($firstName: String!, $lastName: String!, $email: String!, $password: String!) {
        register(firstName: $firstName, lastName: $lastName, email: $email, password: $password) { ${TOKENS} }
      }`,
      { variables: { firstName: "Florencia", lastName: "Ibáñez", email: "flor@example.com", password: "clave-segura-1" } },
    );
    expect(result.body.errors).toBeUndefined();
    const tokens = result.body.data!.register;
    expect(result.issued).toEqual(tokens);
    expect(setCookieValue(result, "at")).toBe(tokens.accessToken);
    expect(setCookieValue(result, "rt")).toBe(tokens.refreshToken);
    for (const name of ["at", "rt"]) {
      const line = result.setCookies.find((c) => c.startsWith(`${name}=`))!;
      expect(line).toMatch(/; Path=\/(;|$)/);
      expect(line).toContain("; HttpOnly");
      expect(line).toContain("; SameSite=Lax");
      expect(line).toContain(`; Max-Age=${15 * 24 * 60 * 60}`);
    }

    const me = await gql(CURRENT, { tokens });
    expect(me.body).toEqual({
      data: {
        current: {
          lastName: "Ibáñez",
          firstName: "Florencia",
          email: "flor@example.com",
          isOrganizer: false,
          isAdmin: false,
          nickname: null,
          documentNumber: null,
          documentType: null,
          address: null,
          state: null,
        },
      },
    });
    // Nothing was refreshed, so no tokens come back.
    expect(me.issued).toEqual({ accessToken: null, refreshToken: null });
  });

  it("reads the at/rt cookies of a browser (a JSON body needs no extra header)", async () => {
    const user = await createTestUser({ roles: ["producer"] });
    const me = await gql(CURRENT, { cookies: await tokensFor(user) });
    expect(me.body.data).toEqual({ current: expect.objectContaining({ email: user.email, isOrganizer: true }) });
  });

  it("lets a request with an expired access token and a valid refresh token through, with fresh tokens in the headers", async () => {
    const user = await createTestUser();
    const old = await tokensFor(user, new Date(Date.now() - 2 * ACCESS_TOKEN_TTL_SECONDS * 1000));
    const result = await gql(CURRENT, { tokens: old });
    expect(result.body).toEqual({ data: { current: expect.objectContaining({ email: user.email }) } });
    expect(result.issued.accessToken).toEqual(expect.any(String));
    expect(result.issued.refreshToken).toEqual(expect.any(String));
    expect(result.issued.refreshToken).not.toBe(old.refreshToken);
    // An API client gets headers only.
    expect(result.setCookies).toEqual([]);
    // The fresh access token works on its own.
    const again = await gql(CURRENT, { tokens: { accessToken: result.issued.accessToken } });
    expect(again.body.data).toEqual({ current: expect.objectContaining({ email: user.email }) });
  });

  it("refreshes a browser's cookies the same way", async () => {
    const user = await createTestUser();
    const old = await tokensFor(user, new Date(Date.now() - 2 * ACCESS_TOKEN_TTL_SECONDS * 1000));
    const result = await gql(CURRENT, { cookies: old });
    expect(result.body.data).toEqual({ current: expect.objectContaining({ email: user.email }) });
    expect(setCookieValue(result, "at")).toBe(result.issued.accessToken);
    expect(setCookieValue(result, "rt")).toBe(result.issued.refreshToken);
    expect(setCookieValue(result, "rt")).not.toBe(old.refreshToken);
  });

  it("tells a client with dead tokens to drop them", async () => {
    const result = await gql(CURRENT, { cookies: { accessToken: "basura", refreshToken: "inventado" } });
    expect(errorCode(result)).toBe("UNAUTHENTICATED");
    expect(result.issued).toEqual({ accessToken: "", refreshToken: "" });
    expect(setCookieValue(result, "at")).toBe("");
    expect(result.setCookies.find((c) => c.startsWith("at="))).toContain("Max-Age=0");
  });

  it("accepts queries by GET but never mutations", async () => {
    const user = await createTestUser({ nickname: "por-get" });
    const query = await gqlGet(`query { fetchUserByNickname(nickname: "por-get") { firstName lastName } }`);
    expect(query.body).toEqual({ data: { fetchUserByNickname: { firstName: user.firstName, lastName: user.lastName } } });

    const tokens = await tokensFor(user);
    const mutation = await gqlGet(`mutation { logout { email } }`, { cookies: tokens });
    expect(mutation.status).toBe(405);
    expect(await isSessionActive(await getDb(), await sessionIdOf(tokens.accessToken))).toBe(true);
  });
});

describe("CORS: other origins", () => {
  const ORIGIN = "https://integrador.example";

  it("may call with tokens in headers and read refreshed tokens, but never with the visitor's cookies", async () => {
    const preflight = await send(
      new Request(GRAPHQL_URL, {
        method: "OPTIONS",
        headers: { origin: ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "content-type, x-access-token, x-refresh-token" },
      }),
    );
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("x-access-token");
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();

    const user = await createTestUser();
    const old = await tokensFor(user, new Date(Date.now() - 2 * ACCESS_TOKEN_TTL_SECONDS * 1000));
    const result = await gql(CURRENT, { tokens: old, headers: { origin: ORIGIN } });
    expect(result.body.data).toEqual({ current: expect.objectContaining({ email: user.email }) });
    expect(result.headers.get("access-control-allow-credentials")).toBeNull();
    expect(result.headers.get("access-control-expose-headers")).toBe("x-access-token, x-refresh-token");
  });
});

describe("CSRF: cookie-authenticated posts a form could send", () => {
  const LOGOUT = "mutation { logout { email } }";

  async function signedInBrowser() {
    const user = await createTestUser();
    const tokens = await tokensFor(user);
    return { user, tokens, stillSignedIn: async () => isSessionActive(await getDb(), await sessionIdOf(tokens.accessToken)) };
  }

  it.each([
    ["an urlencoded form", "application/x-www-form-urlencoded", () => new URLSearchParams({ query: LOGOUT })],
    ["an urlencoded form claiming JSON in a parameter", "application/x-www-form-urlencoded; x=application/json", () => new URLSearchParams({ query: LOGOUT })],
    ["a text/plain body", "text/plain", () => JSON.stringify({ query: LOGOUT })],
    ["a text/plain body claiming JSON in a parameter", "text/plain; charset=application/json", () => JSON.stringify({ query: LOGOUT })],
  ])("refuses %s without a preflight header, and does nothing", async (_name, contentType, body) => {
    const { tokens, stillSignedIn } = await signedInBrowser();
    const result = await postRaw(body(), { contentType, cookies: tokens });
    expect(result.status).toBe(400);
    expect(result.body.errors?.[0]).toMatchObject({ message: "Falta un encabezado de seguridad (x-graphql-csrf).", extensions: { code: "BAD_REQUEST" } });
    expect(await stillSignedIn()).toBe(true);
  });

  it("refuses a multipart form without a preflight header", async () => {
    const { tokens, stillSignedIn } = await signedInBrowser();
    const form = new FormData();
    form.set("operations", JSON.stringify({ query: LOGOUT }));
    form.set("map", "{}");
    const result = await postRaw(form, { cookies: tokens });
    expect(result.status).toBe(400);
    expect(await stillSignedIn()).toBe(true);
  });

  it("accepts the same form with x-graphql-csrf (a header other sites cannot send without asking)", async () => {
    const { user, tokens, stillSignedIn } = await signedInBrowser();
    const result = await postRaw(new URLSearchParams({ query: LOGOUT }), {
      contentType: "application/x-www-form-urlencoded",
      cookies: tokens,
      headers: { "x-graphql-csrf": "1" },
    });
    expect(result.body).toEqual({ data: { logout: { email: user.email } } });
    expect(await stillSignedIn()).toBe(false);
  });

  it("accepts multipart from an API client that sends its tokens in headers", async () => {
    const user = await createTestUser();
    const form = new FormData();
    form.set("operations", JSON.stringify({ query: CURRENT }));
    form.set("map", "{}");
    const result = await postRaw(form, { tokens: await tokensFor(user) });
    expect(result.body.data).toEqual({ current: expect.objectContaining({ email: user.email }) });
  });
});

describe("errors", () => {
  it("delivers partial data next to the errors", async () => {
    await createTestUser({ firstName: "Romina", lastName: "Relacionista", nickname: "romi" });
    const result = await gql(`
      query Referrers {
        found: fetchUserByNickname(nickname: "romi") { firstName lastName }
        missing: fetchUserByNickname(nickname: "nadie-con-este-nick") { firstName lastName }
        current { email }
      }
    `);
    expect(result.body.data).toEqual({ found: { firstName: "Romina", lastName: "Relacionista" }, missing: null, current: null });
    expect(result.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: ["missing"], extensions: { code: "NOT_FOUND" }, message: "No encontramos a nadie con ese apodo." }),
        expect.objectContaining({ path: ["current"], extensions: { code: "UNAUTHENTICATED" } }),
      ]),
    );
  });

  it("answers bad input with BAD_USER_INPUT and Spanish messages per field in extensions.fieldErrors", async () => {
    const result = await gql(`mutation { register(firstName: "Juan2", lastName: " Pérez", email: "juan@", password: "corta") { ${TOKENS} } }`);
    expect(result.body.data).toEqual({ register: null });
    expect(result.body.errors).toEqual([
      expect.objectContaining({
        message: "Upppsss... parece que te faltó cargar algunos datos.",
        path: ["register"],
        extensions: {
          code: "BAD_USER_INPUT",
          fieldErrors: {
            firstName: ["Ingresá solo letras (se permiten tildes, ñ y espacios entre palabras)"],
            lastName: ["Este campo no puede contener espacios al inicio o al final"],
            email: ["Este campo debe ser un email válido"],
            password: ["Este campo debe tener al menos 8 caracteres"],
          },
        },
      }),
    ]);
  });

  it("answers FORBIDDEN when the signed-in person may not do it", async () => {
    const someone = await createTestUser();
    const result = await gql(`mutation { impersonatedLogin(email: "admin@example.com") { ${TOKENS} } }`, { tokens: await tokensFor(someone) });
    expect(result.body).toMatchObject({ data: { impersonatedLogin: null }, errors: [{ extensions: { code: "FORBIDDEN" } }] });
  });

  it("answers TOO_MANY_REQUESTS in Spanish once the attempts run out", async () => {
    const user = await createTestUser();
    const login = (password: string) =>
      gql(`mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { ${TOKENS} } }`, {
        variables: { email: user.email, password },
        ip: freshIp(),
      });
    for (let i = 0; i < 5; i++) expect(errorCode(await login("clave-incorrecta"))).toBe("UNAUTHENTICATED");
    const limited = await login(user.password);
    expect(limited.body.errors?.[0]).toMatchObject({
      message: "Hiciste demasiados intentos. Esperá 15 minutos y volvé a probar.",
      extensions: { code: "TOO_MANY_REQUESTS" },
    });
  });

  it("reports a malformed query as GraphQL validation, not as a fault", async () => {
    const result = await gql(`query { current { contrasena } }`);
    expect(result.body.errors?.[0].message).toContain("contrasena");
    expect(errorCode(result)).not.toBe("INTERNAL_SERVER_ERROR");
  });
});

describe("queries of the spec", () => {
  it("current", async () => {
    const user = await createTestUser({
      roles: ["admin"],
      nickname: "sofi",
      documentNumber: "30123456",
      documentType: "dni",
      address: "Av. Siempre Viva 742",
      state: "AR-B",
    });
    const result = await gql(CURRENT, { tokens: await tokensFor(user) });
    expect(result.body).toEqual({
      data: {
        current: {
          lastName: "Peña",
          firstName: "Sofía",
          email: user.email,
          isOrganizer: false,
          isAdmin: true,
          nickname: "sofi",
          documentNumber: "30123456",
          documentType: "dni",
          address: "Av. Siempre Viva 742",
          state: "AR-B",
        },
      },
    });
  });

  it("getMetricReferralSalesByUser (input of filters; referral metrics and the current user)", async () => {
    const promoter = await createTestUser({ roles: ["promoter"], nickname: "rrpp-metricas" });
    const result = await gql(
      `query Metrics($input: ReferralMetricsFilter) {
        getMetricReferralSalesByUser(input: $input) {
          metrics { eventName totalCount totalAccreditedCount tickets { name count accredited } }
          user { id email firstName lastName nickname }
        }
      }`,
      { variables: { input: { organizationId: null, eventId: null, eventDateId: null, userId: null, fromDate: "" } }, tokens: await tokensFor(promoter) },
    );
    expect(result.body).toEqual({
      data: {
        getMetricReferralSalesByUser: {
          metrics: [],
          user: { id: promoter.id, email: promoter.email, firstName: "Sofía", lastName: "Peña", nickname: "rrpp-metricas" },
        },
      },
    });
    expect(errorCode(await gql(`query { getMetricReferralSalesByUser(input: {}) { metrics { eventName } } }`))).toBe("UNAUTHENTICATED");
  });

  it("findUsers (text; email, firstName, lastName): part of a name within one's own organizations, the whole email otherwise (decision 117)", async () => {
    const bautista = await createTestUser({ email: "bautista.lopez@example.com", firstName: "Bautista", lastName: "López" });
    const producer = await createTestUser({ roles: ["producer"] });
    const found = { email: "bautista.lopez@example.com", firstName: "Bautista", lastName: "López" };
    // Someone else's buyer: not by part of the name, only by the whole email.
    expect((await gql(`query { findUsers(text: "bautista") { email firstName lastName } }`, { tokens: await tokensFor(producer) })).body).toEqual({ data: { findUsers: [] } });
    const byEmail = await gql(`query { findUsers(text: "bautista.lopez@example.com") { email firstName lastName } }`, { tokens: await tokensFor(producer) });
    expect(byEmail.body).toEqual({ data: { findUsers: [found] } });
    // A member of the producer's organization: by part of the name.
    const db = await getDb();
    const [org] = await db.insert(organizations).values({ name: "Búsqueda SRL", slug: `busqueda-${Date.now()}` }).returning();
    await db.insert(memberships).values([
      { organizationId: org.id, userId: producer.id, role: "owner" },
      { organizationId: org.id, userId: bautista.id, role: "operator" },
    ]);
    const byName = await gql(`query { findUsers(text: "bautista") { email firstName lastName } }`, { tokens: await tokensFor(producer) });
    expect(byName.body).toEqual({ data: { findUsers: [found] } });
  });

  it("findUsersByOrganization (input; users { id firstName lastName email }, total, page, limit)", async () => {
    const owner = await createTestUser({ email: "owner-org@example.com", firstName: "Olga", lastName: "Dueña" });
    const outsider = await createTestUser();
    const db = await getDb();
    const [org] = await db.insert(organizations).values({ name: "Contrato SRL", slug: "contrato-srl" }).returning();
    await db.insert(memberships).values({ organizationId: org.id, userId: owner.id, role: "owner" });
    const query = `query Members($input: FindUsersByOrganizationInput!) {
      findUsersByOrganization(input: $input) { users { id firstName lastName email } total page limit }
    }`;
    const result = await gql(query, { variables: { input: { organizationId: org.id, page: 0, limit: 10 } }, tokens: await tokensFor(owner) });
    expect(result.body).toEqual({
      data: {
        findUsersByOrganization: {
          users: [{ id: owner.id, firstName: "Olga", lastName: "Dueña", email: "owner-org@example.com" }],
          total: 1,
          page: 0,
          limit: 10,
        },
      },
    });
    const refused = await gql(query, { variables: { input: { organizationId: org.id } }, tokens: await tokensFor(outsider) });
    expect(refused.body).toMatchObject({ data: { findUsersByOrganization: null }, errors: [{ extensions: { code: "FORBIDDEN" } }] });
  });

  it("userByEmail (email; user { id phoneNumber }, fieldsToComplete)", async () => {
    const user = await createTestUser({ phoneNumber: "+5491155551234", documentType: "dni" });
    const result = await gql(`query Lookup($email: String!) { userByEmail(email: $email) { user { id phoneNumber } fieldsToComplete } }`, {
      variables: { email: user.email },
      tokens: await tokensFor(user),
    });
    expect(result.body).toEqual({
      data: { userByEmail: { user: { id: user.id, phoneNumber: "+5491155551234" }, fieldsToComplete: ["documentNumber"] } },
    });
  });

  it("fetchUserByNickname (nickname; firstName, lastName), public", async () => {
    await createTestUser({ firstName: "Lucas", lastName: "Líder", nickname: "lucas.lider" });
    const result = await gql(`query Referrer($nickname: String!) { fetchUserByNickname(nickname: $nickname) { firstName lastName } }`, {
      variables: { nickname: "Lucas.Lider" },
    });
    expect(result.body).toEqual({ data: { fetchUserByNickname: { firstName: "Lucas", lastName: "Líder" } } });
  });
});

describe("mutations of the spec", () => {
  const LOGIN = `mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { ${TOKENS} } }`;

  it("login (email, password) returns accessToken, refreshToken; wrong password and unknown email look the same", async () => {
    const user = await createTestUser();
    const ok = await gql<{ login: Tokens }>(LOGIN, { variables: { email: user.email, password: user.password }, ip: freshIp() });
    expect(ok.body.errors).toBeUndefined();
    expect(await emailOfToken(ok.body.data!.login.accessToken)).toBe(user.email);
    expect(ok.issued).toEqual(ok.body.data!.login);

    const wrongPassword = await gql(LOGIN, { variables: { email: user.email, password: "no-es-esta" }, ip: freshIp() });
    const unknownEmail = await gql(LOGIN, { variables: { email: "nadie@example.com", password: "no-es-esta" }, ip: freshIp() });
    expect(wrongPassword.body).toEqual(unknownEmail.body);
    expect(wrongPassword.body).toMatchObject({
      data: { login: null },
      errors: [{ message: "El email o la contraseña no son correctos.", extensions: { code: "UNAUTHENTICATED" } }],
    });
  });

  it("impersonatedLogin (email) returns tokens, for admins", async () => {
    const admin = await createTestUser({ roles: ["admin"] });
    const target = await createTestUser();
    const result = await gql<{ impersonatedLogin: Tokens }>(`mutation As($email: String!) { impersonatedLogin(email: $email) { ${TOKENS} } }`, {
      variables: { email: target.email },
      tokens: await tokensFor(admin),
    });
    expect(result.body.errors).toBeUndefined();
    const me = await gql(CURRENT, { tokens: result.body.data!.impersonatedLogin });
    expect(me.body.data).toEqual({ current: expect.objectContaining({ email: target.email, isAdmin: false }) });
  });

  it("register (firstName, lastName, email, password) returns tokens", async () => {
    const result = await gql<{ register: Tokens }>(
      `mutation { register(firstName: "Ñandú", lastName: "Müller", email: "Nandu@Example.com", password: "clave-segura-1") { ${TOKENS} } }`,
    );
    expect(await emailOfToken(result.body.data!.register.accessToken)).toBe("nandu@example.com");
    const again = await gql(`mutation { register(firstName: "Otro", lastName: "Más", email: "nandu@example.com", password: "clave-segura-1") { ${TOKENS} } }`);
    expect(again.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { email: [expect.stringContaining("Ya existe una cuenta")] } });
  });

  it("logout, sent with the tokens, returns user fields and ends the sign-in", async () => {
    const user = await createTestUser();
    const tokens = await tokensFor(user);
    const result = await gql(`mutation { logout { id email firstName lastName } }`, { tokens });
    expect(result.body).toEqual({ data: { logout: { id: user.id, email: user.email, firstName: "Sofía", lastName: "Peña" } } });
    expect(result.issued).toEqual({ accessToken: "", refreshToken: "" });
    expect(result.setCookies.find((c) => c.startsWith("rt="))).toContain("Max-Age=0");

    const after = await gql(CURRENT, { tokens: { accessToken: tokens.accessToken } });
    expect(errorCode(after)).toBe("UNAUTHENTICATED");
    const refreshed = await gql(CURRENT, { tokens: { refreshToken: tokens.refreshToken } });
    expect(errorCode(refreshed)).toBe("UNAUTHENTICATED");
  });

  it("logout without a sign-in answers null and still clears the tokens", async () => {
    const result = await gql(`mutation { logout { id } }`);
    expect(result.body).toEqual({ data: { logout: null } });
    expect(result.issued).toEqual({ accessToken: "", refreshToken: "" });
  });

  it("updateUser (firstName, lastName, email, nickname)", async () => {
    const user = await createTestUser({ phoneNumber: "1155551234" });
    await createTestUser({ nickname: "ocupado" });
    const tokens = await tokensFor(user);
    const UPDATE = `mutation Update($firstName: String, $lastName: String, $email: String, $nickname: String) {
      updateUser(firstName: $firstName, lastName: $lastName, email: $email, nickname: $nickname) { id firstName lastName email nickname phoneNumber }
    }`;
    const result = await gql(UPDATE, { variables: { firstName: "Martina", lastName: "Sáenz", email: user.email, nickname: "martu" }, tokens });
    expect(result.body).toEqual({
      data: { updateUser: { id: user.id, firstName: "Martina", lastName: "Sáenz", email: user.email, nickname: "martu", phoneNumber: "1155551234" } },
    });
    const taken = await gql(UPDATE, { variables: { firstName: "Martina", lastName: "Sáenz", email: user.email, nickname: "OCUPADO" }, tokens });
    expect(taken.body.errors?.[0].extensions).toEqual({ code: "BAD_USER_INPUT", fieldErrors: { nickname: ["Ese apodo ya está en uso"] } });
    expect(errorCode(await gql(UPDATE, { variables: { firstName: "Nadie" } }))).toBe("UNAUTHENTICATED");
  });

  it("recoverPasswordCode (email) and recoverPassword (email, code, password) returns tokens", async () => {
    const user = await createTestUser();
    const asked = await gql(`mutation Ask($email: String!) { recoverPasswordCode(email: $email) }`, { variables: { email: user.email }, ip: freshIp() });
    expect(asked.body).toEqual({ data: { recoverPasswordCode: true } });
    const unknown = await gql(`mutation { recoverPasswordCode(email: "nadie-nunca@example.com") }`, { ip: freshIp() });
    expect(unknown.body).toEqual(asked.body);

    const code = await lastRecoveryCode(user.email);
    const RECOVER = `mutation Recover($email: String!, $code: String!, $password: String!) { recoverPassword(email: $email, code: $code, password: $password) { ${TOKENS} } }`;
    const wrong = await gql(RECOVER, { variables: { email: user.email, code: code === "000000" ? "111111" : "000000", password: "nueva-clave-1" } });
    expect(wrong.body.errors?.[0].extensions).toEqual({ code: "BAD_USER_INPUT", fieldErrors: { code: ["El código no es válido o venció. Pedí uno nuevo."] } });
    const result = await gql<{ recoverPassword: Tokens }>(RECOVER, { variables: { email: user.email, code, password: "nueva-clave-1" } });
    expect(await emailOfToken(result.body.data!.recoverPassword.accessToken)).toBe(user.email);
    expect(result.issued).toEqual(result.body.data!.recoverPassword);
  });

  it("createSignInLink (email, returnTo) returns userFound, emailTo, logEmailId; finishSignInFromLink (token) returns tokens", async () => {
    const user = await createTestUser();
    const created = await gql(
      `mutation Link($email: String!, $returnTo: String) { createSignInLink(email: $email, returnTo: $returnTo) { userFound emailTo logEmailId } }`,
      { variables: { email: user.email.toUpperCase(), returnTo: "/cuenta/mis-tickets" }, ip: freshIp() },
    );
    const email = await lastEmailTo(user.email, "sign-in-link");
    expect(created.body).toEqual({ data: { createSignInLink: { userFound: true, emailTo: user.email, logEmailId: email.id } } });

    const token = await lastSignInToken(user.email);
    const FINISH = `mutation Finish($token: String!) { finishSignInFromLink(token: $token) { ${TOKENS} } }`;
    const finished = await gql<{ finishSignInFromLink: Tokens }>(FINISH, { variables: { token } });
    expect(await emailOfToken(finished.body.data!.finishSignInFromLink.accessToken)).toBe(user.email);
    expect(setCookieValue(finished, "rt")).toBe(finished.body.data!.finishSignInFromLink.refreshToken);

    const reused = await gql(FINISH, { variables: { token } });
    expect(reused.body.errors?.[0]).toMatchObject({ message: "El enlace no es válido o ya venció. Pedí uno nuevo.", extensions: { code: "BAD_USER_INPUT" } });
  });

  it("registerFromLink (token, firstName, lastName) returns tokens for a new account", async () => {
    const created = await gql(`mutation { createSignInLink(email: "primera-vez@example.com") { userFound emailTo logEmailId } }`, { ip: freshIp() });
    expect(created.body.data).toEqual({ createSignInLink: { userFound: false, emailTo: "primera-vez@example.com", logEmailId: expect.any(String) } });
    const token = await lastSignInToken("primera-vez@example.com");
    const result = await gql<{ registerFromLink: Tokens }>(
      `mutation Join($token: String!, $firstName: String!, $lastName: String!) { registerFromLink(token: $token, firstName: $firstName, lastName: $lastName) { ${TOKENS} } }`,
      { variables: { token, firstName: "Primera", lastName: "Vez" } },
    );
    const me = await gql(CURRENT, { tokens: result.body.data!.registerFromLink });
    expect(me.body.data).toEqual({ current: expect.objectContaining({ email: "primera-vez@example.com", firstName: "Primera", lastName: "Vez" }) });
  });
});
