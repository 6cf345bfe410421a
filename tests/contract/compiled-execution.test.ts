import { describe, expect, it } from "vitest";
import { getEventForOrganizer } from "#server/events/events";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { errorCode, gql, type GqlOptions } from "#tests/support/graphql";

/**
 * A document is executed by graphql's standard executor the first time it is seen and by a function compiled
 * for it from the second time on (server/graphql/compiled-execution.ts, decision 138). Integrators must not be
 * able to tell: the same data, the same errors with their paths, locations and codes, the same Spanish messages
 * for variables that do not fit. Each test sends its own query text, so its first run is the standard one.
 */
async function eventOnSale(stock: number) {
  const { ctx, organization } = await createProducer();
  const { event } = await createPublishedEvent(ctx, organization.id, { ticketTypes: [{ name: "Campo", price: 1_500_000, stock }] });
  const { tickets } = await getEventForOrganizer(ctx, event.id);
  return { event, ticket: tickets[0] };
}

/** Three runs of one document: the standard executor's, then the compiled function's twice. */
async function threeRuns(query: string, options: GqlOptions = {}) {
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await gql(query, options));
  return runs;
}

const payer = { firstName: "Lucía", lastName: "Benítez", email: "lucia@example.com", documentType: "dni", documentNumber: "31222333", phoneNumber: "+54 9 351 555-1234" };

describe("compiled execution answers exactly as the standard executor", () => {
  it("a query with variables, aliases, a fragment and an inline fragment: the same data on every run", async () => {
    const { event } = await eventOnSale(20);
    const query = /* GraphQL */ `
      query Sale($slug: String!) {
        sale: event(slug: $slug) { ...EventCard ticketTypes { id name price available } }
        again: event(slug: $slug) { ... on Event { slug dates { startsAt } } }
      }
      fragment EventCard on Event { id name slug venue { name } }
    `;
    const runs = await threeRuns(query, { variables: { slug: event.slug } });
    expect(runs[0].body.errors).toBeUndefined();
    expect(runs[0].body.data).toMatchObject({ sale: { name: event.name, ticketTypes: [{ name: "Campo", available: 20 }] }, again: { slug: event.slug } });
    expect(runs[1].body).toEqual(runs[0].body);
    expect(runs[2].body).toEqual(runs[0].body);
  });

  it("errors keep their message, path, locations and code, next to the data that did resolve", async () => {
    const { event } = await eventOnSale(5);
    const query = /* GraphQL */ `
      query Mixed($slug: String!) {
        found: event(slug: $slug) { name }
        me: current { id }
      }
    `;
    const runs = await threeRuns(query, { variables: { slug: event.slug } });
    expect(runs[0].body.data).toEqual({ found: { name: event.name }, me: null });
    expect(runs[0].body.errors).toEqual([expect.objectContaining({ path: ["me"], locations: [{ line: 4, column: 9 }], extensions: { code: "UNAUTHENTICATED" } })]);
    expect(runs[1].body).toEqual(runs[0].body);
    expect(runs[2].body).toEqual(runs[0].body);
  });

  it("variables that do not fit a compiled query get the standard executor's Spanish answer", async () => {
    const { event, ticket } = await eventOnSale(10);
    const createOrder = (end: string) => /* GraphQL */ `mutation Buy($input: CreateOrderInput!) { createOrder(input: $input) { billingId order { status items { qty } } } }${end}`;
    const compiled = createOrder("");
    const good = { input: { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 1 }], payer, paymentMethod: "MERCADO_PAGO" } };
    for (let i = 0; i < 2; i++) expect((await gql(compiled, { variables: good })).body.data).toMatchObject({ createOrder: { order: { status: "draft" } } });

    const misfits = [
      { input: { ...good.input, items: [{ ticketId: ticket.id, qty: "dos" }] } },
      { input: { ...good.input, payer: { ...payer, email: undefined } } },
      { input: { ...good.input, paymentMethod: "EFECTIVO" } },
      { input: { ...good.input, regalo: true } },
    ];
    for (const variables of misfits) {
      const onCompiled = await gql(compiled, { variables });
      // The same mutation written another way is a new document: its first run is the standard executor's.
      const onStandard = await gql(createOrder(" "), { variables });
      expect(errorCode(onCompiled)).toBe("BAD_USER_INPUT");
      expect(onCompiled.status).toBe(onStandard.status);
      expect(onCompiled.body).toEqual(onStandard.body);
    }
  });

  it("createOrder through the compiled function holds stock, then answers CONFLICT where the standard one does", async () => {
    const { event, ticket } = await eventOnSale(2);
    const mutation = /* GraphQL */ `mutation Hold($input: CreateOrderInput!) { createOrder(input: $input) { order { status items { ticketId qty } } } }`;
    const variables = { input: { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 1 }], payer, paymentMethod: "MERCADO_PAGO" } };
    const runs = await threeRuns(mutation, { variables });
    expect(runs[0].body.data).toEqual({ createOrder: { order: { status: "draft", items: [{ ticketId: ticket.id, qty: 1 }] } } });
    expect(runs[1].body).toEqual(runs[0].body);
    expect(errorCode(runs[2])).toBe("CONFLICT");
    // A space at the end makes it a new document (standard executor) with its fields where they were.
    const standard = await gql(`${mutation} `, { variables });
    expect(runs[2].body).toEqual(standard.body);
    expect(runs[2].body.errors).toEqual([expect.objectContaining({ path: ["createOrder"], locations: [{ line: 1, column: 44 }] })]);
  });
});
