/**
 * Playwright fixtures: each test makes the data it needs straight through the
 * domain functions (the same factories as the Vitest suite) in the server's
 * database, and signs people in by minting a session, so only the flow under
 * test goes through the pages and nothing depends on the demo seed.
 */
import { test as base, expect, type BrowserContext } from "@playwright/test";
import { E2E_AUTH_SECRET, E2E_BASE_URL, E2E_DATABASE_URL } from "./env";

if (!E2E_DATABASE_URL) {
  throw new Error(
    "Los tests end to end necesitan PostgreSQL: definí E2E_DATABASE_URL (por ejemplo postgres://postgres@127.0.0.1:5432/tribuna_e2e); " +
      "las fixtures escriben sus datos en la misma base que usa el servidor.",
  );
}
// Read lazily by server/env.ts: set before any domain module runs.
process.env.DATABASE_URL = E2E_DATABASE_URL;
process.env.AUTH_SECRET = E2E_AUTH_SECRET;
process.env.APP_URL = E2E_BASE_URL;

type Roles = ("producer" | "admin" | "promoter" | "promoter_lead" | "marketing")[];
type TestUser = Awaited<ReturnType<typeof import("#tests/support/context").createTestUser>>;
type TicketTypeInput = Record<string, unknown>;

export interface Factory {
  /** A person with a complete buyer profile (DNI, phone), password `clave-segura-1`. */
  user(options?: { roles?: Roles; firstName?: string; lastName?: string; nickname?: string }): Promise<TestUser>;
  /** A person with this nickname who is a promoter of the event's organization (in a group that sells all its events). */
  promoter(event: { organizationId: string; owner: TestUser }, options: { firstName: string; lastName: string; nickname: string }): Promise<TestUser>;
  /** A producer who owns a new organization. */
  producer(): Promise<Awaited<ReturnType<typeof import("#tests/support/factories").createProducer>>>;
  /** A published event of a new organization, with these ticket types; `tickets` by name. */
  /** A word no other test's data contains (for searches), from the seeded generator and this run's tag. */
  uniqueWord(): string;
  event(options?: { name?: string; days?: number; startsAt?: Date; ticketTypes?: TicketTypeInput[]; transferAccount?: boolean }): Promise<{
    slug: string;
    name: string;
    eventId: string;
    eventDateId: string;
    organizationId: string;
    organizationSlug: string;
    organizationName: string;
    owner: TestUser;
    tickets: Record<string, { id: string; name: string; price: number }>;
  }>;
}

async function makeFactory(): Promise<Factory> {
  const { createTestUser } = await import("#tests/support/context");
  const { createProducer, createEventWithTickets, createTransferAccount } = await import("#tests/support/factories");
  const { randomTag, RUN_TAG } = await import("#tests/support/random");
  return {
    uniqueWord: () => `z${RUN_TAG}${randomTag(4)}`,
    user: (options = {}) =>
      createTestUser({
        firstName: options.firstName ?? "Sofía",
        lastName: options.lastName ?? "Peña",
        roles: options.roles ?? [],
        nickname: options.nickname ?? null,
        documentType: "dni",
        documentNumber: "30123456",
        phoneNumber: "+54 9 11 5555-1234",
      }),
    producer: () => createProducer(),
    async promoter(event, options) {
      const [{ makePromoter }, { actorFor, ctxAs }] = await Promise.all([import("#tests/support/factories"), import("#tests/support/context")]);
      const person = await createTestUser({ ...options, roles: ["promoter"], documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 9 11 5555-1234" });
      await makePromoter(await ctxAs(actorFor({ ...event.owner, roles: ["producer"] })), event.organizationId, person.id);
      return person;
    },
    async event(options = {}) {
      const made = await createEventWithTickets(options.ticketTypes ?? [{ name: "General", price: 1_500_000, stock: 100 }], { name: options.name, days: options.days, startsAt: options.startsAt });
      if (options.transferAccount) await createTransferAccount(made.ctx, made.organization.id);
      return {
        slug: made.event.slug,
        name: made.event.name,
        eventId: made.event.id,
        eventDateId: made.date.id,
        organizationId: made.organization.id,
        organizationSlug: made.organization.slug,
        organizationName: made.organization.name,
        owner: { ...made.user, roles: ["producer"] },
        tickets: Object.fromEntries(Object.entries(made.tickets).map(([name, t]) => [name, { id: t.id, name: t.name, price: t.price }])),
      };
    },
  };
}

/**
 * Signs `user` in for every page of `context` by minting a session, as the sign-in form would; with
 * `secondFactor`, a sign-in that also proved two-factor verification (withdrawals and role changes ask for it).
 */
async function signInContext(context: BrowserContext, user: { id: string; email: string; roles: string[] }, options: { secondFactor?: boolean } = {}) {
  const [{ sessionTokensFor }, cookies] = await Promise.all([import("#tests/support/context"), import("#server/auth/cookies")]);
  const tokens = await sessionTokensFor(user.id, { ...options, roles: user.roles });
  const url = new URL(E2E_BASE_URL);
  await context.addCookies(
    [
      [cookies.ACCESS_COOKIE, tokens.accessToken],
      [cookies.REFRESH_COOKIE, tokens.refreshToken],
    ].map(([name, value]) => ({ name, value, domain: url.hostname, path: "/", httpOnly: true, sameSite: "Lax" as const, secure: false })),
  );
}

export const test = base.extend<
  { signIn: (context: BrowserContext, user: { id: string; email: string; roles: string[] }, options?: { secondFactor?: boolean }) => Promise<void> },
  { factory: Factory }
>({
  factory: [
    async ({}, use) => {
      await use(await makeFactory());
      const { getDatabase } = await import("#server/db/client");
      await (await getDatabase()).close();
    },
    { scope: "worker" },
  ],
  signIn: async ({}, use) => use(signInContext),
  // Every page runs under the Content-Security-Policy (server/http/csp.ts): a blocked script, style or
  // frame anywhere in a test is a failure, so the policy can never quietly break a flow.
  context: async ({ context }, use) => {
    const violations: string[] = [];
    context.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(`${message.page()?.url() ?? ""}: ${message.text()}`);
    });
    await use(context);
    expect(violations, "violaciones de la Content-Security-Policy").toEqual([]);
  },
});

export { expect };
