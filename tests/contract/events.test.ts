/**
 * Events and organizations over HTTP (docs/api.md): real Requests to
 * /api/graphql through the Remix route, real database, the field names
 * integrators rely on. Data an operation does not create itself is set up
 * with the shared factories (the same domain functions the app uses).
 */
import { eq } from "drizzle-orm";
import { getNamedType, isLeafType, type GraphQLObjectType } from "graphql";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { startSession, type Tokens } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { memberships, ticketTypes } from "#server/db/schema";
import { getEventForOrganizer, setPresaleCode } from "#server/events/events";
import { schema } from "#server/graphql/schema";
import { createTestUser } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { errorCode, gql, type GqlResult } from "#tests/support/graphql";

const BUENOS_AIRES = "America/Argentina/Buenos_Aires";
/** What Intl prints for ARS in es-AR: "$", a no-break space, dots for thousands. */
const pesos = (text: string) => `$\u00a0${text}`;
/** ISO 8601 with the Buenos Aires offset, as integrators get every date. */
const ISO_BA = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}-03:00$/;

const MESSAGES = {
  invalidCuit: "Ingresá un CUIT válido (11 números, revisá el dígito verificador)",
  invalidDate: "Ingresá una fecha y hora válidas",
  endsBeforeStart: "El fin tiene que ser después del inicio",
  stockBelowSold: "El stock no puede ser menor que lo ya vendido",
  conditions: "Aceptá las condiciones de servicio antes de publicar",
  pixel: "El ID del píxel solo puede tener números",
  required: "Este campo es obligatorio",
};

const PUBLIC_EVENT = /* GraphQL */ `
  query Event($slug: String!, $accessCode: String, $presaleCode: String) {
    event(slug: $slug, accessCode: $accessCode, presaleCode: $presaleCode) {
      id slug name description status
      venue { name address city province }
      organization { slug name }
      dates { id startsAt endsAt status }
      ticketTypes { id name description price priceFormatted available hidden presale paymentMethod minPerOrder maxPerOrder state stateLabel requiresAccessCode }
      presaleUnlocked hasPresale
    }
  }
`;

const MANAGED_EVENT_FIELDS = /* GraphQL */ `
  id slug name description status published serviceConditionsAccepted serviceFeeBps pixelId presaleCode
  venue { name address city province }
  dates { id startsAt endsAt doorsAt status }
  ticketTypes { id name price priceFormatted stock sold available hidden presale accessCode status minPerOrder maxPerOrder }
  customFields { label kind options required }
`;
const MANAGED_EVENT = `query ManagedEvent($id: ID!) { managedEvent(id: $id) { ${MANAGED_EVENT_FIELDS} } }`;

interface PublicTicket {
  id: string;
  name: string;
  price: number;
  priceFormatted: string;
  available: number;
  hidden: boolean;
  presale: boolean;
  state: string;
  stateLabel: string;
  requiresAccessCode: boolean;
}
interface PublicEventData {
  event: {
    id: string;
    slug: string;
    name: string;
    status: string;
    dates: { id: string; startsAt: string; endsAt: string; status: string }[];
    ticketTypes: PublicTicket[];
    presaleUnlocked: boolean;
    hasPresale: boolean;
  } | null;
}
interface ManagedEventData {
  id: string;
  slug: string;
  name: string;
  description: string;
  status: string;
  published: boolean;
  serviceConditionsAccepted: boolean;
  serviceFeeBps: number | null;
  pixelId: string | null;
  presaleCode: string | null;
  dates: { id: string; startsAt: string; endsAt: string; doorsAt: string | null; status: string }[];
  ticketTypes: { id: string; name: string; price: number; stock: number; sold: number; available: number; accessCode: string | null; hidden: boolean; status: string }[];
  customFields: { label: string; kind: string; options: string[]; required: boolean }[];
}

async function signIn(user: { id: string; email: string; roles: string[] }): Promise<Tokens> {
  return startSession(await getDb(), user, new Date());
}

/** A producer (with an organization made by the factories) and the tokens an API client would hold. */
async function producer() {
  const made = await createProducer();
  return { ...made, tokens: await signIn({ ...made.user, roles: ["producer"] }) };
}

function fieldErrors(result: GqlResult<unknown>) {
  return result.body.errors?.[0]?.extensions?.fieldErrors;
}

/** Data or a readable failure: the test stops at the first unexpected error. */
function dataOf<T>(result: GqlResult<T>): T {
  expect(result.body.errors, JSON.stringify(result.body.errors)).toBeUndefined();
  return result.body.data!;
}

const unique = () => Math.random().toString(36).slice(2, 8);

/** "2027-03-14T20:30" next year, a local Buenos Aires time without offset. */
const NEXT_YEAR = new Date().getFullYear() + 1;
const localTime = (monthDay: string, time: string) => `${NEXT_YEAR}-${monthDay}T${time}`;

async function publicEvent(slug: string, codes: { accessCode?: string; presaleCode?: string } = {}) {
  return gql<PublicEventData>(PUBLIC_EVENT, { variables: { slug, ...codes } });
}

async function managedEvent(tokens: Tokens, id: string) {
  return dataOf(await gql<{ managedEvent: ManagedEventData }>(MANAGED_EVENT, { variables: { id }, tokens })).managedEvent;
}

describe("catalogue: events(filter, page, limit)", () => {
  it("lists published upcoming events soonest first, filtered by search and province, as { items, total, page, limit }", async () => {
    const { ctx, organization } = await producer();
    const token = `zorzal${unique()}`;
    const first = await createPublishedEvent(ctx, organization.id, { name: `Festival ${token} Sur`, days: 5, province: "AR-CF" });
    const second = await createPublishedEvent(ctx, organization.id, { name: `Festival ${token} Córdoba`, days: 10, province: "AR-X" });
    const third = await createPublishedEvent(ctx, organization.id, { name: `Festival ${token} Norte`, days: 15, province: "AR-CF" });
    await createPublishedEvent(ctx, organization.id, { name: `Festival ${token} Borrador`, days: 7, publish: false });

    const LIST = /* GraphQL */ `
      query Events($filter: EventFilter, $page: Int, $limit: Int) {
        events(filter: $filter, page: $page, limit: $limit) {
          items {
            id slug name status nextDate minPrice minPriceFormatted available
            venue { name address city province }
            organization { slug name }
          }
          total page limit
        }
      }
    `;
    type List = { events: { items: { slug: string; name: string; nextDate: string; [key: string]: unknown }[]; total: number; page: number; limit: number } };

    const page0 = dataOf(await gql<List>(LIST, { variables: { filter: { search: token.toUpperCase() }, page: 0, limit: 2 } })).events;
    expect(page0.total).toBe(3);
    expect(page0.page).toBe(0);
    expect(page0.limit).toBe(2);
    expect(page0.items.map((e) => e.slug)).toEqual([first.event.slug, second.event.slug]);
    expect(page0.items[0]).toEqual({
      id: first.event.id,
      slug: first.event.slug,
      name: `Festival ${token} Sur`,
      status: "active",
      nextDate: DateTime.fromJSDate(first.date.startsAt).setZone(BUENOS_AIRES).toISO(),
      minPrice: 1_500_000,
      minPriceFormatted: pesos("15.000,00"),
      available: 100,
      venue: { name: "Club Atlético Fernández Fierro", address: "Sánchez de Bustamante 772", city: "Buenos Aires", province: "AR-CF" },
      organization: { slug: organization.slug, name: organization.name },
    });
    expect(page0.items[0].nextDate).toMatch(ISO_BA);
    expect(page0.items[0].nextDate).toMatch(/T21:00:00\.000-03:00$/);

    const page1 = dataOf(await gql<List>(LIST, { variables: { filter: { search: token }, page: 1, limit: 2 } })).events;
    expect(page1).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(page1.items.map((e) => e.slug)).toEqual([third.event.slug]);

    const cordoba = dataOf(await gql<List>(LIST, { variables: { filter: { search: token, province: "AR-X" } } })).events;
    expect(cordoba.total).toBe(1);
    expect(cordoba.items.map((e) => e.slug)).toEqual([second.event.slug]);

    // Accents and case do not matter: "CÓRDOBA" finds "Córdoba" (and only among this test's events).
    const accented = dataOf(await gql<List>(LIST, { variables: { filter: { search: `${token} cordoba` } } })).events;
    expect(accented.items.map((e) => e.slug)).toEqual([second.event.slug]);

    const byOrganization = dataOf(await gql<List>(LIST, { variables: { filter: { organizationSlug: organization.slug } } })).events;
    expect(byOrganization.items.map((e) => e.slug)).toEqual([first.event.slug, second.event.slug, third.event.slug]);

    const dateWindow = dataOf(
      await gql<List>(LIST, {
        variables: { filter: { search: token, from: DateTime.now().plus({ days: 8 }).toISODate(), to: DateTime.now().setZone(BUENOS_AIRES).plus({ days: 12 }).toISODate() } },
      }),
    ).events;
    expect(dateWindow.items.map((e) => e.slug)).toEqual([second.event.slug]);
  });

  it("uses defaults for paging, keeps limit within 1–48, and refuses a date it cannot read with BAD_USER_INPUT", async () => {
    const defaults = dataOf(await gql<{ events: { page: number; limit: number } }>(`{ events { page limit } }`)).events;
    expect(defaults).toEqual({ page: 0, limit: 12 });
    const clamped = dataOf(await gql<{ events: { page: number; limit: number } }>(`{ events(page: -3, limit: 500) { page limit } }`)).events;
    expect(clamped).toEqual({ page: 0, limit: 48 });

    const bad = await gql(`{ events(filter: { from: "el sábado" }) { total } }`);
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    expect(fieldErrors(bad)).toEqual({ from: [MESSAGES.invalidDate] });
  });
});

describe("catalogue: event(slug, accessCode) and organization(slug)", () => {
  it("answers the stable fields: venue, organization, dates in Buenos Aires time, money in centavos and formatted", async () => {
    const { ctx, organization } = await producer();
    const { event, date } = await createPublishedEvent(ctx, organization.id, {
      name: "Tango en el Galpón",
      ticketTypes: [{ name: "General", description: "Entrada general", price: 1_250_050, stock: 40, minPerOrder: 2, maxPerOrder: 6 }],
    });
    const result = dataOf(await publicEvent(event.slug.toUpperCase()));
    expect(result.event).toEqual({
      id: event.id,
      slug: event.slug,
      name: "Tango en el Galpón",
      description: "Una noche para bailar.",
      status: "active",
      venue: { name: "Club Atlético Fernández Fierro", address: "Sánchez de Bustamante 772", city: "Buenos Aires", province: "AR-CF" },
      organization: { slug: organization.slug, name: organization.name },
      dates: [
        {
          id: date.id,
          startsAt: DateTime.fromJSDate(date.startsAt).setZone(BUENOS_AIRES).toISO(),
          endsAt: DateTime.fromJSDate(date.endsAt).setZone(BUENOS_AIRES).toISO(),
          status: "active",
        },
      ],
      ticketTypes: [
        {
          id: expect.any(String),
          name: "General",
          description: "Entrada general",
          price: 1_250_050,
          priceFormatted: pesos("12.500,50"),
          available: 40,
          hidden: false,
          presale: false,
          paymentMethod: "MercadoPagoAccount",
          minPerOrder: 2,
          maxPerOrder: 6,
          state: "on_sale",
          stateLabel: "A la venta",
          requiresAccessCode: false,
        },
      ],
      presaleUnlocked: false,
      hasPresale: false,
    });
    expect(result.event!.dates[0].startsAt).toMatch(ISO_BA);
  });

  it("shows a hidden ticket only with its access code (any capitalisation) and presale tickets only with the presale code", async () => {
    const { ctx, organization, tokens } = await producer();
    const { event } = await createPublishedEvent(ctx, organization.id, {
      name: "Noche con Invitados",
      ticketTypes: [
        { name: "General", price: 1_000_000, stock: 100 },
        { name: "VIP oculto", price: 3_000_000, stock: 10, hidden: true, accessCode: "VIP2030" },
        { name: "Socios", price: 500_000, stock: 20, accessCode: "SOCIOS" },
        { name: "Preventa", price: 800_000, stock: 50, presale: true },
      ],
    });
    dataOf(
      await gql(`mutation($input: SetEventPresaleCodeInput!) { setEventPresaleCode(input: $input) { presaleCode } }`, {
        variables: { input: { id: event.id, presaleCode: "AmigosDelClub" } },
        tokens,
      }),
    );
    const names = async (codes: { accessCode?: string; presaleCode?: string }) =>
      dataOf(await publicEvent(event.slug, codes)).event!.ticketTypes.map((t) => t.name);

    expect(await names({})).toEqual(["General", "Socios"]);
    expect(await names({ accessCode: "otro-codigo" })).toEqual(["General", "Socios"]);
    expect(await names({ accessCode: "vip2030" })).toEqual(["General", "VIP oculto", "Socios"]);
    expect(await names({ accessCode: "VIP2030" })).toEqual(["General", "VIP oculto", "Socios"]);
    expect(await names({ presaleCode: "codigo-falso" })).toEqual(["General", "Socios"]);
    expect(await names({ presaleCode: "amigosdelclub" })).toEqual(["General", "Socios", "Preventa"]);

    const locked = dataOf(await publicEvent(event.slug)).event!;
    expect(locked).toMatchObject({ hasPresale: true, presaleUnlocked: false });
    // A visible ticket with an access code is listed, not on sale until the code is sent.
    expect(locked.ticketTypes.find((t) => t.name === "Socios")).toMatchObject({ requiresAccessCode: true, state: "needs_code" });
    const unlocked = dataOf(await publicEvent(event.slug, { accessCode: "socios", presaleCode: "AMIGOSDELCLUB" })).event!;
    expect(unlocked.presaleUnlocked).toBe(true);
    expect(unlocked.ticketTypes.find((t) => t.name === "Socios")).toMatchObject({ state: "on_sale" });
    expect(unlocked.ticketTypes.find((t) => t.name === "Preventa")).toMatchObject({ presale: true, state: "on_sale", price: 800_000 });
  });

  it("answers NOT_FOUND for drafts, deleted events and unknown slugs, without blanking the rest of the request", async () => {
    const { ctx, organization, tokens } = await producer();
    const draft = await createPublishedEvent(ctx, organization.id, { name: "Todavía en borrador", publish: false });
    const gone = await createPublishedEvent(ctx, organization.id, { name: "Evento que se borra" });
    expect(dataOf(await publicEvent(gone.event.slug)).event!.id).toBe(gone.event.id);
    dataOf(
      await gql(`mutation($input: StatusInput!) { setEventStatus(input: $input) { status } }`, {
        variables: { input: { id: gone.event.id, status: "deleted" } },
        tokens,
      }),
    );

    for (const slug of [draft.event.slug, gone.event.slug, "no-existe-este-evento"]) {
      const result = await publicEvent(slug);
      expect(result.body.data).toEqual({ event: null });
      expect(result.body.errors).toEqual([
        expect.objectContaining({ message: "No encontramos el evento.", path: ["event"], extensions: { code: "NOT_FOUND" } }),
      ]);
    }

    const both = await gql<{ missing: unknown; org: { slug: string } }>(
      `query($missing: String!, $org: String!) { missing: event(slug: $missing) { id } org: organization(slug: $org) { slug } }`,
      { variables: { missing: draft.event.slug, org: organization.slug } },
    );
    expect(both.body.data).toEqual({ missing: null, org: { slug: organization.slug } });
    expect(both.body.errors?.map((e) => e.extensions?.code)).toEqual(["NOT_FOUND"]);
  });

  it("answers organization(slug) publicly (never its CUIT or contact) and NOT_FOUND for an unknown slug", async () => {
    const { organization } = await producer();
    const result = await gql<{ organization: Record<string, unknown> }>(
      `query($slug: String!) { organization(slug: $slug) { id slug name description logoUrl } }`,
      { variables: { slug: organization.slug.toUpperCase() } },
    );
    expect(dataOf(result).organization).toEqual({ id: organization.id, slug: organization.slug, name: organization.name, description: null, logoUrl: null });

    const missing = await gql(`{ organization(slug: "nadie-se-llama-asi") { id } }`);
    expect(missing.body.data).toEqual({ organization: null });
    expect(errorCode(missing)).toBe("NOT_FOUND");

    const privateField = await gql(`{ organization(slug: "x") { cuit } }`);
    expect(privateField.body.errors?.[0]?.message).toMatch(/^El campo «cuit» no existe en Organization\./);
  });
});

describe("back office over GraphQL (tokens in x-access-token)", () => {
  it("runs the organizer flow: createOrganization → createEvent → acceptServiceConditions → publishEvent → visible in event", async () => {
    const user = await createTestUser();
    const tokens = await signIn(user);
    const slug = `productora-${unique()}`;

    const created = dataOf(
      await gql<{ createOrganization: { id: string; slug: string; cuit: string; name: string } }>(
        `mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { id name slug cuit contactEmail } }`,
        { variables: { input: { name: "La Trastienda Producciones", slug, cuit: "30-71234567-1", contactEmail: "hola@trastienda.com.ar" } }, tokens },
      ),
    ).createOrganization;
    expect(created).toMatchObject({ name: "La Trastienda Producciones", slug, cuit: "30712345671" });

    const mine = dataOf(await gql<{ myOrganizations: unknown[] }>(`{ myOrganizations { id name slug role } }`, { tokens })).myOrganizations;
    expect(mine).toEqual([{ id: created.id, name: "La Trastienda Producciones", slug, role: "owner" }]);

    const createEvent = await gql<{ createEvent: ManagedEventData }>(
      `mutation($input: CreateEventInput!) { createEvent(input: $input) { ${MANAGED_EVENT_FIELDS} } }`,
      {
        tokens,
        variables: {
          input: {
            organizationId: created.id,
            name: "Ciclo de Jazz",
            description: "Tres noches de jazz.",
            category: "recitales",
            venueName: "La Trastienda",
            venueAddress: "Balcarce 460",
            city: "Buenos Aires",
            province: "AR-CF",
            dates: [
              { startsAt: localTime("03-14", "20:30"), endsAt: localTime("03-14", "23:30"), doorsAt: localTime("03-14", "19:30") },
              { startsAt: `${NEXT_YEAR}-03-15T20:30:00-03:00`, endsAt: `${NEXT_YEAR}-03-16T02:30:00Z` },
            ],
            ticketTypes: [
              { name: "Platea", price: 2_500_000, stock: 80, maxPerOrder: 4 },
              { name: "Invitación", price: 0, stock: 10, hidden: true, accessCode: "JAZZ" },
            ],
          },
        },
      },
    );
    const event = dataOf(createEvent).createEvent;
    expect(event).toMatchObject({
      slug: "ciclo-de-jazz",
      name: "Ciclo de Jazz",
      status: "active",
      published: false,
      serviceConditionsAccepted: false,
      serviceFeeBps: null,
      venue: { name: "La Trastienda", address: "Balcarce 460", city: "Buenos Aires", province: "AR-CF" },
    });
    // Local times are Buenos Aires time; every date comes back with the -03:00 offset.
    expect(event.dates).toEqual([
      { id: expect.any(String), startsAt: `${NEXT_YEAR}-03-14T20:30:00.000-03:00`, endsAt: `${NEXT_YEAR}-03-14T23:30:00.000-03:00`, doorsAt: `${NEXT_YEAR}-03-14T19:30:00.000-03:00`, status: "active" },
      { id: expect.any(String), startsAt: `${NEXT_YEAR}-03-15T20:30:00.000-03:00`, endsAt: `${NEXT_YEAR}-03-15T23:30:00.000-03:00`, doorsAt: null, status: "active" },
    ]);
    expect(event.ticketTypes).toEqual([
      expect.objectContaining({ name: "Platea", price: 2_500_000, priceFormatted: pesos("25.000,00"), stock: 80, sold: 0, available: 80, maxPerOrder: 4, minPerOrder: 1, hidden: false, accessCode: null }),
      expect.objectContaining({ name: "Invitación", price: 0, priceFormatted: pesos("0,00"), hidden: true, accessCode: "JAZZ" }),
    ]);

    // A draft does not exist for buyers, and cannot be published before the conditions are accepted.
    expect(errorCode(await publicEvent(event.slug))).toBe("NOT_FOUND");
    const early = await gql(`mutation($input: EventIdInput!) { publishEvent(input: $input) { published } }`, { variables: { input: { id: event.id } }, tokens });
    expect(errorCode(early)).toBe("BAD_USER_INPUT");
    expect(early.body.errors?.[0]?.message).toBe(MESSAGES.conditions);
    expect(fieldErrors(early)).toEqual({ _form: [MESSAGES.conditions] });

    const accepted = dataOf(
      await gql<{ acceptServiceConditions: { serviceConditionsAccepted: boolean; serviceFeeBps: number; published: boolean } }>(
        `mutation($input: EventIdInput!) { acceptServiceConditions(input: $input) { serviceConditionsAccepted serviceFeeBps published } }`,
        { variables: { input: { id: event.id } }, tokens },
      ),
    ).acceptServiceConditions;
    expect(accepted).toEqual({ serviceConditionsAccepted: true, serviceFeeBps: 1000, published: false });

    const published = dataOf(
      await gql<{ publishEvent: { published: boolean; publishedAt: string } }>(
        `mutation($input: EventIdInput!) { publishEvent(input: $input) { published publishedAt } }`,
        { variables: { input: { id: event.id } }, tokens },
      ),
    ).publishEvent;
    expect(published.published).toBe(true);
    expect(published.publishedAt).toMatch(ISO_BA);

    const visible = dataOf(await publicEvent(event.slug)).event!;
    expect(visible).toMatchObject({ id: event.id, name: "Ciclo de Jazz", organization: { slug, name: "La Trastienda Producciones" } });
    expect(visible.dates.map((d) => d.startsAt)).toEqual([`${NEXT_YEAR}-03-14T20:30:00.000-03:00`, `${NEXT_YEAR}-03-15T20:30:00.000-03:00`]);
    expect(visible.ticketTypes.map((t) => t.name)).toEqual(["Platea"]);
    expect(dataOf(await publicEvent(event.slug, { accessCode: "jazz" })).event!.ticketTypes.map((t) => t.name)).toEqual(["Platea", "Invitación"]);

    const list = dataOf(
      await gql<{ organizationEvents: { items: { id: string; published: boolean; firstDate: string; lastDate: string; sold: number; stock: number }[]; total: number; page: number; limit: number } }>(
        `query($organizationId: ID!) { organizationEvents(organizationId: $organizationId) { items { id name slug status published firstDate lastDate sold stock } total page limit } }`,
        { variables: { organizationId: created.id }, tokens },
      ),
    ).organizationEvents;
    expect(list).toMatchObject({ total: 1, page: 0, limit: 20 });
    expect(list.items).toEqual([
      {
        id: event.id,
        name: "Ciclo de Jazz",
        slug: "ciclo-de-jazz",
        status: "active",
        published: true,
        firstDate: `${NEXT_YEAR}-03-14T20:30:00.000-03:00`,
        lastDate: `${NEXT_YEAR}-03-15T23:30:00.000-03:00`,
        sold: 0,
        stock: 90,
      },
    ]);
  });

  it("pages organizationEvents and refuses an unreadable fromDate", async () => {
    const { ctx, organization, tokens } = await producer();
    const one = await createPublishedEvent(ctx, organization.id, { name: "Primera", days: 3 });
    const two = await createPublishedEvent(ctx, organization.id, { name: "Segunda", days: 6, publish: false });
    const LIST = `query($id: ID!, $page: Int, $limit: Int, $fromDate: String) { organizationEvents(organizationId: $id, page: $page, limit: $limit, fromDate: $fromDate) { items { id published } total page limit } }`;
    type List = { organizationEvents: { items: { id: string; published: boolean }[]; total: number; page: number; limit: number } };
    const page0 = dataOf(await gql<List>(LIST, { variables: { id: organization.id, page: 0, limit: 1 }, tokens })).organizationEvents;
    expect(page0).toEqual({ items: [{ id: one.event.id, published: true }], total: 2, page: 0, limit: 1 });
    const page1 = dataOf(await gql<List>(LIST, { variables: { id: organization.id, page: 1, limit: 1 }, tokens })).organizationEvents;
    expect(page1).toEqual({ items: [{ id: two.event.id, published: false }], total: 2, page: 1, limit: 1 });
    const later = dataOf(await gql<List>(LIST, { variables: { id: organization.id, fromDate: DateTime.now().plus({ days: 5 }).toISODate() }, tokens })).organizationEvents;
    expect(later.items.map((e) => e.id)).toEqual([two.event.id]);

    const bad = await gql(LIST, { variables: { id: organization.id, fromDate: "ayer" }, tokens });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    expect(fieldErrors(bad)).toEqual({ fromDate: [MESSAGES.invalidDate] });
    expect(errorCode(await gql(LIST, { variables: { id: "no-es-un-id" }, tokens }))).toBe("NOT_FOUND");
  });

  it("updateEvent changes only the fields sent; setEventStatus paused leaves the event visible with every ticket paused", async () => {
    const { ctx, organization, tokens } = await producer();
    const { event } = await createPublishedEvent(ctx, organization.id, { name: "Fiesta de Verano" });

    const updated = dataOf(
      await gql<{ updateEvent: ManagedEventData }>(
        `mutation($input: UpdateEventInput!) { updateEvent(input: $input) { ${MANAGED_EVENT_FIELDS} } }`,
        { variables: { input: { id: event.id, name: "Fiesta de Verano (nueva fecha)", city: "La Plata", province: "AR-B" } }, tokens },
      ),
    ).updateEvent;
    expect(updated).toMatchObject({
      name: "Fiesta de Verano (nueva fecha)",
      description: "Una noche para bailar.",
      slug: event.slug,
      venue: { name: "Club Atlético Fernández Fierro", address: "Sánchez de Bustamante 772", city: "La Plata", province: "AR-B" },
    });
    const cleared = dataOf(
      await gql<{ updateEvent: { description: string; name: string } }>(
        `mutation($input: UpdateEventInput!) { updateEvent(input: $input) { name description } }`,
        { variables: { input: { id: event.id, description: null } }, tokens },
      ),
    ).updateEvent;
    expect(cleared).toEqual({ name: "Fiesta de Verano (nueva fecha)", description: "" });
    const noName = await gql(`mutation($input: UpdateEventInput!) { updateEvent(input: $input) { name } }`, { variables: { input: { id: event.id, name: null } }, tokens });
    expect(errorCode(noName)).toBe("BAD_USER_INPUT");
    expect(fieldErrors(noName)).toEqual({ name: [MESSAGES.required] });

    const SET_STATUS = `mutation($input: StatusInput!) { setEventStatus(input: $input) { id status } }`;
    expect(dataOf(await gql(SET_STATUS, { variables: { input: { id: event.id, status: "paused" } }, tokens }))).toEqual({ setEventStatus: { id: event.id, status: "paused" } });
    const paused = dataOf(await publicEvent(event.slug)).event!;
    expect(paused.status).toBe("paused");
    expect(paused.ticketTypes.map((t) => [t.state, t.stateLabel])).toEqual([["paused", "Venta pausada"]]);

    dataOf(await gql(SET_STATUS, { variables: { input: { id: event.id, status: "active" } }, tokens }));
    expect(dataOf(await publicEvent(event.slug)).event!.ticketTypes.map((t) => t.state)).toEqual(["on_sale"]);

    const badStatus = await gql(SET_STATUS, { variables: { input: { id: event.id, status: "archivado" } }, tokens });
    expect(errorCode(badStatus)).toBe("BAD_USER_INPUT");
    expect(fieldErrors(badStatus)).toEqual({ status: ["Estado inválido"] });

    dataOf(await gql(SET_STATUS, { variables: { input: { id: event.id, status: "deleted" } }, tokens }));
    const revive = await gql(SET_STATUS, { variables: { input: { id: event.id, status: "active" } }, tokens });
    expect(errorCode(revive)).toBe("CONFLICT");
    expect(revive.body.errors?.[0]?.message).toBe("Un evento eliminado no se puede reactivar.");
  });

  it("createTicketType, updateTicketType (never below sold, Spanish fieldErrors) and addTicketStock", async () => {
    const { ctx, organization, tokens } = await producer();
    const { event, date } = await createPublishedEvent(ctx, organization.id, { name: "Stand-up del Jueves" });
    const TICKET_FIELDS = "id eventId eventDateId name description price priceFormatted stock sold available minPerOrder maxPerOrder salesStartAt salesEndAt status hidden presale accessCode paymentMethod";

    const created = dataOf(
      await gql<{ createTicketType: Record<string, unknown> & { id: string } }>(
        `mutation($input: CreateTicketTypeInput!) { createTicketType(input: $input) { ${TICKET_FIELDS} } }`,
        {
          tokens,
          variables: {
            input: {
              eventId: event.id,
              eventDateId: date.id,
              name: "Primera fila",
              description: "Cerca del escenario",
              price: 1_999_99,
              stock: 10,
              maxPerOrder: 2,
              salesEndAt: localTime("01-10", "12:00"),
              hidden: true,
              accessCode: "FILA1",
            },
          },
        },
      ),
    ).createTicketType;
    expect(created).toEqual({
      id: expect.any(String),
      eventId: event.id,
      eventDateId: date.id,
      name: "Primera fila",
      description: "Cerca del escenario",
      price: 199_999,
      priceFormatted: pesos("1.999,99"),
      stock: 10,
      sold: 0,
      available: 10,
      minPerOrder: 1,
      maxPerOrder: 2,
      salesStartAt: null,
      salesEndAt: `${NEXT_YEAR}-01-10T12:00:00.000-03:00`,
      status: "active",
      hidden: true,
      presale: false,
      accessCode: "FILA1",
      paymentMethod: "MercadoPagoAccount",
    });

    // Five were sold (orders are another area; the count is what matters here).
    const db = await getDb();
    await db.update(ticketTypes).set({ sold: 5 }).where(eq(ticketTypes.id, created.id));

    const UPDATE = `mutation($input: UpdateTicketTypeInput!) { updateTicketType(input: $input) { ${TICKET_FIELDS} } }`;
    const below = await gql(UPDATE, { variables: { input: { id: created.id, stock: 4 } }, tokens });
    expect(below.body.data).toEqual({ updateTicketType: null });
    expect(errorCode(below)).toBe("BAD_USER_INPUT");
    expect(fieldErrors(below)).toEqual({ stock: [MESSAGES.stockBelowSold] });

    // Only what is sent changes: name and stock here, the access code and the rest stay.
    const renamed = dataOf(await gql<{ updateTicketType: Record<string, unknown> }>(UPDATE, { variables: { input: { id: created.id, name: "Fila 1", stock: 5 } }, tokens })).updateTicketType;
    expect(renamed).toMatchObject({ name: "Fila 1", stock: 5, sold: 5, available: 0, hidden: true, accessCode: "FILA1", eventDateId: date.id, maxPerOrder: 2, price: 199_999, description: "Cerca del escenario" });
    const opened = dataOf(await gql<{ updateTicketType: Record<string, unknown> }>(UPDATE, { variables: { input: { id: created.id, hidden: false, accessCode: null, salesEndAt: null } }, tokens })).updateTicketType;
    expect(opened).toMatchObject({ name: "Fila 1", hidden: false, accessCode: null, salesEndAt: null });

    const badPrice = await gql(UPDATE, { variables: { input: { id: created.id, price: -1 } }, tokens });
    expect(errorCode(badPrice)).toBe("BAD_USER_INPUT");
    expect(fieldErrors(badPrice)).toEqual({ price: ["Ingresá un precio válido (por ejemplo 1500 o 1.500,50)"] });
    const badLimits = await gql(UPDATE, { variables: { input: { id: created.id, minPerOrder: 3 } }, tokens });
    expect(fieldErrors(badLimits)).toEqual({ maxPerOrder: ["El máximo por compra no puede ser menor que el mínimo"] });

    const ADD = `mutation($input: AddTicketStockInput!) { addTicketStock(input: $input) { stock sold available } }`;
    expect(dataOf(await gql(ADD, { variables: { input: { id: created.id, quantity: 20 } }, tokens }))).toEqual({ addTicketStock: { stock: 25, sold: 5, available: 20 } });
    const zero = await gql(ADD, { variables: { input: { id: created.id, quantity: 0 } }, tokens });
    expect(errorCode(zero)).toBe("BAD_USER_INPUT");
    expect(fieldErrors(zero)).toEqual({ quantity: ["Ingresá un número entre 1 y 1000000"] });

    const buyers = dataOf(await publicEvent(event.slug)).event!.ticketTypes;
    expect(buyers.find((t) => t.name === "Fila 1")).toMatchObject({ available: 20, hidden: false, requiresAccessCode: false, state: "on_sale", priceFormatted: pesos("1.999,99") });

    const SET_STATUS = `mutation($input: StatusInput!) { setTicketTypeStatus(input: $input) { status } }`;
    expect(dataOf(await gql(SET_STATUS, { variables: { input: { id: created.id, status: "deleted" } }, tokens }))).toEqual({ setTicketTypeStatus: { status: "deleted" } });
    expect(dataOf(await publicEvent(event.slug)).event!.ticketTypes.map((t) => t.name)).toEqual(["General"]);
    expect((await managedEvent(tokens, event.id)).ticketTypes.map((t) => t.name)).toEqual(["General"]);
  });

  it("adds, edits and pauses dates; sets the pixel, presale code and custom fields through input", async () => {
    const { ctx, organization, tokens } = await producer();
    const { event, date } = await createPublishedEvent(ctx, organization.id, { name: "Ciclo de Cine" });

    const added = dataOf(
      await gql<{ addEventDate: { id: string; eventId: string; startsAt: string; endsAt: string; doorsAt: string | null; status: string } }>(
        `mutation($input: AddEventDateInput!) { addEventDate(input: $input) { id eventId startsAt endsAt doorsAt status } }`,
        { variables: { input: { eventId: event.id, startsAt: localTime("05-02", "18:00"), endsAt: localTime("05-02", "20:00") } }, tokens },
      ),
    ).addEventDate;
    expect(added).toEqual({ id: expect.any(String), eventId: event.id, startsAt: `${NEXT_YEAR}-05-02T18:00:00.000-03:00`, endsAt: `${NEXT_YEAR}-05-02T20:00:00.000-03:00`, doorsAt: null, status: "active" });

    const UPDATE_DATE = `mutation($input: UpdateEventDateInput!) { updateEventDate(input: $input) { startsAt endsAt doorsAt } }`;
    expect(dataOf(await gql(UPDATE_DATE, { variables: { input: { id: added.id, doorsAt: localTime("05-02", "17:00") } }, tokens }))).toEqual({
      updateEventDate: { startsAt: `${NEXT_YEAR}-05-02T18:00:00.000-03:00`, endsAt: `${NEXT_YEAR}-05-02T20:00:00.000-03:00`, doorsAt: `${NEXT_YEAR}-05-02T17:00:00.000-03:00` },
    });
    const backwards = await gql(UPDATE_DATE, { variables: { input: { id: added.id, endsAt: localTime("05-02", "17:30") } }, tokens });
    expect(errorCode(backwards)).toBe("BAD_USER_INPUT");
    expect(fieldErrors(backwards)).toEqual({ endsAt: [MESSAGES.endsBeforeStart] });

    expect(
      dataOf(await gql(`mutation($input: StatusInput!) { setEventDateStatus(input: $input) { id status } }`, { variables: { input: { id: date.id, status: "paused" } }, tokens })),
    ).toEqual({ setEventDateStatus: { id: date.id, status: "paused" } });
    // The factory's date is ten days away, so always before May next year.
    expect(dataOf(await publicEvent(event.slug)).event!.dates.map((d) => [d.id, d.status])).toEqual([
      [date.id, "paused"],
      [added.id, "active"],
    ]);

    const PIXEL = `mutation($input: SetEventPixelInput!) { setEventPixel(input: $input) { pixelId } }`;
    expect(dataOf(await gql(PIXEL, { variables: { input: { id: event.id, pixelId: "123456789012345" } }, tokens }))).toEqual({ setEventPixel: { pixelId: "123456789012345" } });
    const badPixel = await gql(PIXEL, { variables: { input: { id: event.id, pixelId: "abc-123" } }, tokens });
    expect(errorCode(badPixel)).toBe("BAD_USER_INPUT");
    expect(fieldErrors(badPixel)).toEqual({ pixelId: [MESSAGES.pixel] });
    expect(dataOf(await gql(PIXEL, { variables: { input: { id: event.id, pixelId: null } }, tokens }))).toEqual({ setEventPixel: { pixelId: null } });

    const PRESALE = `mutation($input: SetEventPresaleCodeInput!) { setEventPresaleCode(input: $input) { presaleCode } }`;
    expect(dataOf(await gql(PRESALE, { variables: { input: { id: event.id, presaleCode: "CINEFILOS" } }, tokens }))).toEqual({ setEventPresaleCode: { presaleCode: "CINEFILOS" } });
    expect(dataOf(await gql(PRESALE, { variables: { input: { id: event.id, presaleCode: "" } }, tokens }))).toEqual({ setEventPresaleCode: { presaleCode: null } });

    const FIELDS = `mutation($input: SetEventCustomFieldsInput!) { setEventCustomFields(input: $input) { id customFields { label kind options required } } }`;
    const withFields = dataOf(
      await gql(FIELDS, {
        variables: { input: { id: event.id, fields: [{ label: "Edad", kind: "number", required: true }, { label: "Talle de remera", kind: "select", options: ["S", "M", "L"] }] } },
        tokens,
      }),
    );
    expect(withFields).toEqual({
      setEventCustomFields: {
        id: event.id,
        customFields: [
          { label: "Edad", kind: "number", options: [], required: true },
          { label: "Talle de remera", kind: "select", options: ["S", "M", "L"], required: false },
        ],
      },
    });
    const badField = await gql(FIELDS, { variables: { input: { id: event.id, fields: [{ label: "Talle", kind: "select", options: ["Único"] }] } }, tokens });
    expect(errorCode(badField)).toBe("BAD_USER_INPUT");
    expect(fieldErrors(badField)).toEqual({ "fields.0.options": ["Una lista necesita al menos dos opciones"] });
    expect((await managedEvent(tokens, event.id)).customFields).toHaveLength(2);
  });

  it("answers BAD_USER_INPUT with Spanish fieldErrors for a bad CUIT and a bad date, and creates nothing", async () => {
    const { organization, tokens } = await producer();
    const badCuit = await gql(`mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }`, {
      variables: { input: { name: "Productora Trucha", cuit: "20-12345678-0", contactEmail: "hola@trucha.com.ar" } },
      tokens,
    });
    expect(badCuit.body.data).toEqual({ createOrganization: null });
    expect(badCuit.body.errors?.[0]).toMatchObject({
      message: "Upppsss... parece que te faltó cargar algunos datos.",
      extensions: { code: "BAD_USER_INPUT", fieldErrors: { cuit: [MESSAGES.invalidCuit] } },
    });
    expect(dataOf(await gql<{ myOrganizations: unknown[] }>(`{ myOrganizations { slug } }`, { tokens })).myOrganizations).toEqual([{ slug: organization.slug }]);

    const badDate = await gql(`mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }`, {
      tokens,
      variables: {
        input: {
          organizationId: organization.id,
          name: "Fecha rota",
          venueName: "Anfiteatro",
          venueAddress: "Av. Belgrano 100",
          city: "Rosario",
          province: "AR-S",
          dates: [
            { startsAt: "32/13/2030 25:00", endsAt: localTime("03-01", "23:00") },
            { startsAt: localTime("03-02", "22:00"), endsAt: localTime("03-02", "21:00") },
          ],
          ticketTypes: [{ name: "General", price: 100, stock: 10 }],
        },
      },
    });
    expect(errorCode(badDate)).toBe("BAD_USER_INPUT");
    expect(fieldErrors(badDate)).toEqual({
      "dates.0.startsAt": [MESSAGES.invalidDate],
      "dates.1.endsAt": [MESSAGES.endsBeforeStart],
    });
    const list = dataOf(
      await gql<{ organizationEvents: { total: number } }>(`query($id: ID!) { organizationEvents(organizationId: $id) { total } }`, { variables: { id: organization.id }, tokens }),
    );
    expect(list.organizationEvents.total).toBe(0);
  });
});

describe("authorization", () => {
  /** Another producer's organization with a draft event (dates, a ticket type), to attack. */
  async function victim() {
    const owner = await producer();
    const { event, date } = await createPublishedEvent(owner.ctx, owner.organization.id, { name: "Evento Ajeno", publish: false });
    const { tickets } = await getEventForOrganizer(owner.ctx, event.id);
    return { owner, organizationId: owner.organization.id, eventId: event.id, dateId: date.id, ticketId: tickets[0].id };
  }

  type Ids = Awaited<ReturnType<typeof victim>>;
  const start = localTime("06-01", "21:00");
  const end = localTime("06-01", "23:00");

  /** Every back-office operation on one organization's data, with input that would otherwise succeed. */
  const OPERATIONS: [string, string, (ids: Ids) => Record<string, unknown>][] = [
    ["organizationEvents", `query($id: ID!) { organizationEvents(organizationId: $id) { total } }`, (ids) => ({ id: ids.organizationId })],
    ["managedEvent", `query($id: ID!) { managedEvent(id: $id) { id } }`, (ids) => ({ id: ids.eventId })],
    ["updateOrganization", `mutation($input: UpdateOrganizationInput!) { updateOrganization(input: $input) { id } }`, (ids) => ({ input: { id: ids.organizationId, name: "Tomada" } })],
    [
      "createEvent",
      `mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }`,
      (ids) => ({
        input: { organizationId: ids.organizationId, name: "Colado", venueName: "Bar", venueAddress: "Calle 1", city: "Salta", province: "AR-A", dates: [{ startsAt: start, endsAt: end }] },
      }),
    ],
    ["updateEvent", `mutation($input: UpdateEventInput!) { updateEvent(input: $input) { id } }`, (ids) => ({ input: { id: ids.eventId, name: "Cambiado" } })],
    ["setEventStatus", `mutation($input: StatusInput!) { setEventStatus(input: $input) { id } }`, (ids) => ({ input: { id: ids.eventId, status: "deleted" } })],
    ["acceptServiceConditions", `mutation($input: EventIdInput!) { acceptServiceConditions(input: $input) { id } }`, (ids) => ({ input: { id: ids.eventId } })],
    ["publishEvent", `mutation($input: EventIdInput!) { publishEvent(input: $input) { id } }`, (ids) => ({ input: { id: ids.eventId } })],
    ["addEventDate", `mutation($input: AddEventDateInput!) { addEventDate(input: $input) { id } }`, (ids) => ({ input: { eventId: ids.eventId, startsAt: start, endsAt: end } })],
    ["updateEventDate", `mutation($input: UpdateEventDateInput!) { updateEventDate(input: $input) { id } }`, (ids) => ({ input: { id: ids.dateId, startsAt: start, endsAt: end } })],
    ["setEventDateStatus", `mutation($input: StatusInput!) { setEventDateStatus(input: $input) { id } }`, (ids) => ({ input: { id: ids.dateId, status: "deleted" } })],
    ["createTicketType", `mutation($input: CreateTicketTypeInput!) { createTicketType(input: $input) { id } }`, (ids) => ({ input: { eventId: ids.eventId, name: "Coladas", price: 0, stock: 1000 } })],
    ["updateTicketType", `mutation($input: UpdateTicketTypeInput!) { updateTicketType(input: $input) { id } }`, (ids) => ({ input: { id: ids.ticketId, price: 1 } })],
    ["setTicketTypeStatus", `mutation($input: StatusInput!) { setTicketTypeStatus(input: $input) { id } }`, (ids) => ({ input: { id: ids.ticketId, status: "paused" } })],
    ["addTicketStock", `mutation($input: AddTicketStockInput!) { addTicketStock(input: $input) { id } }`, (ids) => ({ input: { id: ids.ticketId, quantity: 500 } })],
    ["setEventPixel", `mutation($input: SetEventPixelInput!) { setEventPixel(input: $input) { id } }`, (ids) => ({ input: { id: ids.eventId, pixelId: "666" } })],
    ["setEventPresaleCode", `mutation($input: SetEventPresaleCodeInput!) { setEventPresaleCode(input: $input) { id } }`, (ids) => ({ input: { id: ids.eventId, presaleCode: "ROBADO" } })],
    [
      "setEventCustomFields",
      `mutation($input: SetEventCustomFieldsInput!) { setEventCustomFields(input: $input) { id } }`,
      (ids) => ({ input: { id: ids.eventId, fields: [{ label: "DNI", kind: "text" }] } }),
    ],
  ];

  async function expectUntouched(ids: Ids) {
    const event = await managedEvent(ids.owner.tokens, ids.eventId);
    expect(event).toMatchObject({ name: "Evento Ajeno", status: "active", published: false, serviceConditionsAccepted: false, pixelId: null, presaleCode: null, customFields: [] });
    expect(event.dates.map((d) => [d.id, d.status])).toEqual([[ids.dateId, "active"]]);
    expect(event.ticketTypes.map((t) => [t.id, t.price, t.stock, t.status])).toEqual([[ids.ticketId, 1_500_000, 100, "active"]]);
    const organization = await gql<{ organizationEvents: { total: number } }>(`query($id: ID!) { organizationEvents(organizationId: $id) { total } }`, {
      variables: { id: ids.organizationId },
      tokens: ids.owner.tokens,
    });
    expect(dataOf(organization).organizationEvents.total).toBe(1);
    const mine = dataOf(await gql<{ myOrganizations: { name: string }[] }>(`{ myOrganizations { name } }`, { tokens: ids.owner.tokens })).myOrganizations;
    expect(mine).toEqual([{ name: ids.owner.organization.name }]);
  }

  it("gives a producer of another organization FORBIDDEN on every back-office operation, and changes nothing", async () => {
    const ids = await victim();
    const intruder = await producer();
    for (const [name, query, variables] of OPERATIONS) {
      const result = await gql(query, { variables: variables(ids), tokens: intruder.tokens });
      expect(result.body.data, name).toEqual({ [name]: null });
      expect(result.body.errors, name).toEqual([
        expect.objectContaining({ message: "No tenés permiso para hacer esto.", path: [name], extensions: { code: "FORBIDDEN" } }),
      ]);
    }
    await expectUntouched(ids);
    // The intruder's own organization is still theirs alone.
    expect(dataOf(await gql<{ myOrganizations: { slug: string }[] }>(`{ myOrganizations { slug } }`, { tokens: intruder.tokens })).myOrganizations).toEqual([
      { slug: intruder.organization.slug },
    ]);
  });

  it("gives an anonymous client UNAUTHENTICATED on every back-office operation, and changes nothing", async () => {
    const ids = await victim();
    const all: [string, string, (ids: Ids) => Record<string, unknown>][] = [
      ...OPERATIONS,
      ["myOrganizations", `{ myOrganizations { id } }`, () => ({})],
      [
        "createOrganization",
        `mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }`,
        () => ({ input: { name: "Sin cuenta", cuit: "30-71234567-1", contactEmail: "x@example.com" } }),
      ],
    ];
    for (const [name, query, variables] of all) {
      const result = await gql(query, { variables: variables(ids) });
      expect(result.body.data, name).toEqual({ [name]: null });
      expect(result.body.errors?.map((e) => e.extensions?.code), name).toEqual(["UNAUTHENTICATED"]);
    }
    await expectUntouched(ids);
  });

  it("lets a marketing member set the pixel and read the whole answer, which carries only the pixel and no sales data", async () => {
    const owner = await producer();
    const { event } = await createPublishedEvent(owner.ctx, owner.organization.id, { name: "Noche de Píxeles" });
    await setPresaleCode(owner.ctx, { eventId: event.id, presaleCode: "SOLOFANS" });
    const member = await createTestUser();
    await (await getDb()).insert(memberships).values({ organizationId: owner.organization.id, userId: member.id, role: "marketing" });
    const tokens = await signIn(member);
    // Everything the answer's type offers, as a generated client would ask for it.
    const payload = (schema.getMutationType()!.getFields().setEventPixel.type as GraphQLObjectType).getFields();
    const selection = Object.values(payload)
      .map((f) => (isLeafType(getNamedType(f.type)) ? f.name : `${f.name} { __typename }`))
      .join(" ");
    const result = await gql<{ setEventPixel: Record<string, unknown> }>(`mutation($input: SetEventPixelInput!) { setEventPixel(input: $input) { ${selection} } }`, {
      variables: { input: { id: event.id, pixelId: "123456789012345" } },
      tokens,
    });
    expect(result.body.errors).toBeUndefined();
    expect(dataOf(result).setEventPixel).toMatchObject({ id: event.id, name: "Noche de Píxeles", pixelId: "123456789012345" });
    expect(JSON.stringify(result.body)).not.toContain("SOLOFANS");
    // The event's dates, tickets and sales stay behind sales:read.
    expect(errorCode(await gql(`query($id: ID!) { managedEvent(id: $id) { id } }`, { variables: { id: event.id }, tokens }))).toBe("FORBIDDEN");
    expect((await managedEvent(owner.tokens, event.id)).pixelId).toBe("123456789012345");
  });

  it("answers NOT_FOUND for ids that name nothing (not an internal error)", async () => {
    const { tokens } = await producer();
    const missing = "00000000-0000-4000-8000-000000000000";
    for (const [name, query, variables] of [
      ["managedEvent", `query($id: ID!) { managedEvent(id: $id) { id } }`, { id: "no-es-un-id" }],
      ["managedEvent", `query($id: ID!) { managedEvent(id: $id) { id } }`, { id: missing }],
      ["updateEvent", `mutation($input: UpdateEventInput!) { updateEvent(input: $input) { id } }`, { input: { id: missing, name: "X" } }],
      ["updateEventDate", `mutation($input: UpdateEventDateInput!) { updateEventDate(input: $input) { id } }`, { input: { id: "fecha-1", doorsAt: null } }],
      ["updateTicketType", `mutation($input: UpdateTicketTypeInput!) { updateTicketType(input: $input) { id } }`, { input: { id: missing, stock: 1 } }],
      ["updateOrganization", `mutation($input: UpdateOrganizationInput!) { updateOrganization(input: $input) { id } }`, { input: { id: "org-1", name: "X" } }],
    ] as const) {
      const result = await gql(query, { variables, tokens });
      expect(errorCode(result), `${name} ${JSON.stringify(variables)}`).toBe("NOT_FOUND");
    }
  });
});
