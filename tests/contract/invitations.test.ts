import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { createEventWithTickets, createProducer } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";
import { randomTag } from "#tests/support/random";

const INVITATION_FIELDS = "id code eventId eventName guestName email documentNumber tickets { ticketTypeName qty } qty redeemed status invitedBy createdAt";
const GIVEAWAY_FIELDS = "id eventId eventName status fileName totalRows counts { ready invalid sent skipped failed } done toSend createdAt startedAt finishedAt";

const SEND = /* GraphQL */ `
  mutation SendInvitation($input: SendInvitationInput!) { sendInvitation(input: $input) { id code eventId email status total createdAt } }
`;
const LIST = /* GraphQL */ `
  query Invitations($filter: InvitationsFilter!) { invitations(filter: $filter) { total page limit items { ${INVITATION_FIELDS} } } }
`;
const REVOKE = /* GraphQL */ `
  mutation RevokeInvitation($id: ID!) { revokeInvitation(id: $id) { id code status } }
`;
const RESEND = /* GraphQL */ `
  mutation ResendInvitation($id: ID!) { resendInvitation(id: $id) { id code status } }
`;
const PREVIEW = /* GraphQL */ `
  mutation PreviewGiveaway($input: PreviewGiveawayInput!) { previewGiveaway(input: $input) { ${GIVEAWAY_FIELDS} } }
`;
const START = /* GraphQL */ `
  mutation StartGiveaway($id: ID!) { startGiveaway(id: $id) { ${GIVEAWAY_FIELDS} } }
`;
const GIVEAWAY = /* GraphQL */ `
  query Giveaway($id: ID!) { giveaway(id: $id) { ${GIVEAWAY_FIELDS} } }
`;
const ROWS = /* GraphQL */ `
  query GiveawayRows($input: GiveawayRowsInput!) {
    giveawayRows(input: $input) { total page limit items { line email firstName lastName documentNumber qty ticketTypeName status error } }
  }
`;

type InvitationOrderData = { id: string; code: string; eventId: string; email: string; status: string; total: number; createdAt: string };
type InvitationData = {
  id: string;
  code: string;
  eventId: string;
  eventName: string;
  guestName: string;
  email: string;
  documentNumber: string;
  tickets: { ticketTypeName: string; qty: number }[];
  qty: number;
  redeemed: number;
  status: string;
  invitedBy: string | null;
  createdAt: string;
};
type GiveawayData = {
  id: string;
  eventId: string;
  eventName: string;
  status: string;
  fileName: string;
  totalRows: number;
  counts: { ready: number; invalid: number; sent: number; skipped: number; failed: number };
  done: number;
  toSend: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};
type RowData = { line: number; email: string; firstName: string; lastName: string; documentNumber: string; qty: number; ticketTypeName: string; status: string; error: string | null };

async function organizer() {
  const made = await createEventWithTickets([{ name: "General", price: 1_500_000, stock: 50 }]);
  const tokens = await startSession(await getDb(), made.user, new Date());
  return { ...made, ticket: made.tickets.General, tokens };
}

async function stranger() {
  const other = await createProducer();
  return startSession(await getDb(), other.user, new Date());
}

describe("invitations over GraphQL", () => {
  it("sendInvitation issues a gift order that invitations lists; resendInvitation and revokeInvitation change it", async () => {
    const { event, organization, ticket, tokens } = await organizer();
    const email = `ana-${randomTag(6)}@example.com`;
    const sent = await gql<{ sendInvitation: InvitationOrderData }>(SEND, {
      tokens,
      variables: { input: { eventId: event.id, ticketTypeId: ticket.id, email, firstName: "Ana", lastName: "Gómez", documentNumber: "30.123.456", qty: 2 } },
    });
    expect(sent.body.errors).toBeUndefined();
    const order = sent.body.data!.sendInvitation;
    expect(order).toMatchObject({ eventId: event.id, email, status: "active", total: 0 });
    expect(order.code).toEqual(expect.any(String));

    const list = await gql<{ invitations: { total: number; page: number; limit: number; items: InvitationData[] } }>(LIST, {
      tokens,
      variables: { filter: { organizationId: organization.id } },
    });
    expect(list.body.errors).toBeUndefined();
    expect(list.body.data!.invitations).toMatchObject({ total: 1, page: 0, limit: 25 });
    expect(list.body.data!.invitations.items).toEqual([
      expect.objectContaining({
        id: order.id,
        code: order.code,
        eventId: event.id,
        eventName: event.name,
        guestName: "Ana Gómez",
        email,
        documentNumber: "30123456",
        tickets: [{ ticketTypeName: "General", qty: 2 }],
        qty: 2,
        redeemed: 0,
        status: "active",
      }),
    ]);
    expect(list.body.data!.invitations.items[0].invitedBy).toBeTruthy();
    const searched = await gql<{ invitations: { total: number } }>(LIST, { tokens, variables: { filter: { organizationId: organization.id, eventId: event.id, search: "gómez" } } });
    expect(searched.body.data!.invitations.total).toBe(1);
    const none = await gql<{ invitations: { total: number } }>(LIST, { tokens, variables: { filter: { organizationId: organization.id, search: "nadie" } } });
    expect(none.body.data!.invitations.total).toBe(0);

    const resent = await gql<{ resendInvitation: { id: string; status: string } }>(RESEND, { tokens, variables: { id: order.id } });
    expect(resent.body.data!.resendInvitation).toEqual({ id: order.id, code: order.code, status: "active" });
    const revoked = await gql<{ revokeInvitation: { id: string; status: string } }>(REVOKE, { tokens, variables: { id: order.id } });
    expect(revoked.body.data!.revokeInvitation).toEqual({ id: order.id, code: order.code, status: "revoked" });
    expect(errorCode(await gql(REVOKE, { tokens, variables: { id: order.id } }))).toBe("CONFLICT");
    expect(errorCode(await gql(RESEND, { tokens, variables: { id: order.id } }))).toBe("CONFLICT");
    const after = await gql<{ invitations: { items: InvitationData[] } }>(LIST, { tokens, variables: { filter: { organizationId: organization.id } } });
    expect(after.body.data!.invitations.items.map((i) => i.status)).toEqual(["revoked"]);
  });

  it("answers BAD_USER_INPUT with the Spanish field message, FORBIDDEN to other organizations, UNAUTHENTICATED without a session", async () => {
    const { event, organization, ticket, tokens } = await organizer();
    const input = { eventId: event.id, ticketTypeId: ticket.id, email: "no-es-un-email", firstName: "Beto", lastName: "Pérez", qty: 1 };
    const bad = await gql(SEND, { tokens, variables: { input } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    expect(bad.body.errors?.[0].extensions?.fieldErrors).toMatchObject({ email: ["Este campo debe ser un email válido"] });

    const good = { ...input, email: `beto-${randomTag(6)}@example.com` };
    const otherTokens = await stranger();
    expect(errorCode(await gql(SEND, { tokens: otherTokens, variables: { input: good } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(LIST, { tokens: otherTokens, variables: { filter: { organizationId: organization.id } } }))).toBe("FORBIDDEN");
    const csv = `email,nombre,apellido\n${good.email},Beto,Pérez\n`;
    expect(errorCode(await gql(PREVIEW, { tokens: otherTokens, variables: { input: { eventId: event.id, csv } } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(SEND, { variables: { input: good } }))).toBe("UNAUTHENTICATED");

    // Another organization's user cannot touch this one's invitation either.
    const sent = await gql<{ sendInvitation: InvitationOrderData }>(SEND, { tokens, variables: { input: good } });
    expect(sent.body.errors).toBeUndefined();
    expect(errorCode(await gql(REVOKE, { tokens: otherTokens, variables: { id: sent.body.data!.sendInvitation.id } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(REVOKE, { tokens, variables: { id: "not-an-id" } }))).toBe("NOT_FOUND");
  });

  it("previewGiveaway checks a CSV (two ready, one bad email), giveawayRows explains the bad one, startGiveaway starts sending", async () => {
    const { event, tokens } = await organizer();
    const tag = randomTag(6);
    const csv = [
      "email,nombre,apellido,dni,cantidad,tipo de entrada",
      `carla-${tag}@example.com,Carla,Díaz,30123456,2,General`,
      "no-es-un-email,Darío,López,,1,General",
      `eva-${tag}@example.com,Eva,Ruiz,,1,general`,
    ].join("\n");
    const preview = await gql<{ previewGiveaway: GiveawayData }>(PREVIEW, { tokens, variables: { input: { eventId: event.id, fileName: "invitados.csv", csv } } });
    expect(preview.body.errors).toBeUndefined();
    const giveaway = preview.body.data!.previewGiveaway;
    expect(giveaway).toMatchObject({
      eventId: event.id,
      eventName: event.name,
      status: "preview",
      fileName: "invitados.csv",
      totalRows: 3,
      counts: { ready: 2, invalid: 1, sent: 0, skipped: 0, failed: 0 },
      done: 0,
      toSend: 2,
      startedAt: null,
      finishedAt: null,
    });

    const invalid = await gql<{ giveawayRows: { total: number; items: RowData[] } }>(ROWS, { tokens, variables: { input: { giveawayId: giveaway.id, status: "invalid" } } });
    expect(invalid.body.errors).toBeUndefined();
    expect(invalid.body.data!.giveawayRows).toMatchObject({ total: 1, items: [{ line: 3, email: "no-es-un-email", status: "invalid", error: "El email no es válido." }] });
    const all = await gql<{ giveawayRows: { total: number; items: RowData[] } }>(ROWS, { tokens, variables: { input: { giveawayId: giveaway.id } } });
    expect(all.body.data!.giveawayRows.items.map((r) => [r.line, r.status, r.qty, r.ticketTypeName])).toEqual([
      [2, "ready", 2, "General"],
      [3, "invalid", 1, "General"],
      [4, "ready", 1, "General"],
    ]);

    const started = await gql<{ startGiveaway: GiveawayData }>(START, { tokens, variables: { id: giveaway.id } });
    expect(started.body.errors).toBeUndefined();
    expect(started.body.data!.startGiveaway).toMatchObject({ id: giveaway.id, status: "sending", counts: { ready: 2, invalid: 1 }, done: 0, toSend: 2 });
    expect(started.body.data!.startGiveaway.startedAt).toEqual(expect.any(String));
    expect(errorCode(await gql(START, { tokens, variables: { id: giveaway.id } }))).toBe("CONFLICT");
    const polled = await gql<{ giveaway: GiveawayData }>(GIVEAWAY, { tokens, variables: { id: giveaway.id } });
    expect(polled.body.data!.giveaway).toMatchObject({ id: giveaway.id, status: "sending" });
    expect(errorCode(await gql(GIVEAWAY, { tokens: await stranger(), variables: { id: giveaway.id } }))).toBe("FORBIDDEN");
  });

  it("previewGiveaway answers BAD_USER_INPUT on file for a file without the header", async () => {
    const { event, tokens } = await organizer();
    const bad = await gql(PREVIEW, { tokens, variables: { input: { eventId: event.id, csv: "hola,que,tal\n1,2,3\n" } } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    expect(bad.body.errors?.[0].extensions?.fieldErrors).toHaveProperty("file");
  });
});
