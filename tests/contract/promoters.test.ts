import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { acceptInvitation, TEAM_INVITATION_EMAIL_KIND } from "#server/team/team";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createEventWithTickets, createProducer } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";
import { lastEmailTo } from "#tests/support/mailbox";
import { randomTag } from "#tests/support/random";

const CREATE = /* GraphQL */ `
  mutation CreatePromoterGroup($input: PromoterGroupInput!) { createPromoterGroup(input: $input) { id name commissionPerTicket eventIds ticketTypeIds } }
`;
const INVITE = /* GraphQL */ `
  mutation InvitePromoter($input: InvitePromoterInput!) { invitePromoter(input: $input) }
`;
const GROUPS = /* GraphQL */ `
  query PromoterGroups($organizationId: ID!) {
    promoterGroups(organizationId: $organizationId) {
      group { id name leadUserId commissionPerTicket eventIds ticketTypeIds }
      members { userId name nickname isLead sold accredited commission collected settled owed perEvent { eventName sold accredited } }
      invitations { id email who role expiresAt }
    }
  }
`;
const MINE = /* GraphQL */ `
  query MyPromoterGroup($organizationId: ID!) {
    myPromoterGroup(organizationId: $organizationId) { groupId groupName isLead me { sold accredited commission owed } links { eventName url qrSvg } members { nickname } }
  }
`;
const IN_HAND = /* GraphQL */ `
  query InHand($organizationId: ID!) { ticketsSellableInHand(organizationId: $organizationId) { id name eventName price left dates { id startsAt } } }
`;
const SELL = /* GraphQL */ `
  mutation SellInHand($input: SellInHandInput!) { sellTicketsInHand(input: $input) { id code email total paymentMethod } }
`;
const SETTLE = /* GraphQL */ `
  mutation Settle($input: PromoterSettlementInput!) { recordPromoterSettlement(input: $input) }
`;
const METRICS = /* GraphQL */ `
  query ReferralMetrics($input: ReferralMetricsFilter) {
    getMetricReferralSalesByUser(input: $input) { metrics { eventName totalCount totalAccreditedCount tickets { name count accredited } } user { id nickname } }
  }
`;

describe("promoters over GraphQL", () => {
  it("an organization makes a group and invites a promoter who sells in hand; each one reads only what they may", async () => {
    const made = await createEventWithTickets([{ name: "Mano", price: 800_000, stock: 10, paymentMethod: "PromoterAccount" }]);
    const db = await getDb();
    const owner = await startSession(db, made.user, new Date());
    const org = made.organization.id;

    const taken = await gql(CREATE, { tokens: owner, variables: { input: { organizationId: org, name: "Noche", commissionPerTicket: 100_000 } } });
    expect(taken.body.errors).toBeUndefined();
    const group = (taken.body.data as { createPromoterGroup: { id: string } }).createPromoterGroup;
    const twice = await gql(CREATE, { tokens: owner, variables: { input: { organizationId: org, name: "noche" } } });
    expect(errorCode(twice)).toBe("BAD_USER_INPUT");
    expect(twice.body.errors![0].extensions!.fieldErrors).toEqual({ name: ["Ya hay un grupo con ese nombre."] });

    const person = await createTestUser();
    expect((await gql(INVITE, { tokens: owner, variables: { input: { groupId: group.id, who: person.email } } })).body.data).toEqual({ invitePromoter: true });
    const token = /\/organizacion\/operadores\/aceptar\/([A-Za-z0-9_-]+)/.exec((await lastEmailTo(person.email, TEAM_INVITATION_EMAIL_KIND)).text)![1];
    const nickname = `mano.${randomTag(5)}`;
    await acceptInvitation(await ctxAs(actorFor({ ...person, roles: [] })), token, { nickname });
    const promoter = await startSession(db, person, new Date());

    const inHand = await gql<{ ticketsSellableInHand: { id: string; name: string; left: number }[] }>(IN_HAND, { tokens: promoter, variables: { organizationId: org } });
    expect(inHand.body.data!.ticketsSellableInHand).toEqual([expect.objectContaining({ name: "Mano", price: 800_000, left: 10 })]);
    const sold = await gql<{ sellTicketsInHand: { total: number; paymentMethod: string } }>(SELL, {
      tokens: promoter,
      variables: { input: { organizationId: org, ticketTypeId: made.tickets.Mano.id, qty: 2, email: "lola@example.com", firstName: "Lola", lastName: "Mora" } },
    });
    expect(sold.body.errors).toBeUndefined();
    expect(sold.body.data!.sellTicketsInHand).toMatchObject({ paymentMethod: "PROMOTER", email: "lola@example.com" });
    const total = sold.body.data!.sellTicketsInHand.total;

    const mine = await gql<{ myPromoterGroup: { isLead: boolean; me: { sold: number; owed: number }; links: { url: string }[] } }>(MINE, { tokens: promoter, variables: { organizationId: org } });
    expect(mine.body.data!.myPromoterGroup).toMatchObject({ groupName: "Noche", isLead: false, me: { sold: 2, accredited: 0, commission: 200_000, owed: total }, members: [] });
    expect(mine.body.data!.myPromoterGroup.links[0].url).toMatch(new RegExp(`/eventos/${made.event.slug}/${nickname.replace(".", "\\.")}$`));
    const metrics = await gql(METRICS, { tokens: promoter, variables: { input: { organizationId: org } } });
    expect(metrics.body.data).toEqual({ getMetricReferralSalesByUser: { metrics: [{ eventName: made.event.name, totalCount: 2, totalAccreditedCount: 0, tickets: [{ name: "Mano", count: 2, accredited: 0 }] }], user: { id: person.id, nickname } } });

    expect((await gql(SETTLE, { tokens: owner, variables: { input: { organizationId: org, userId: person.id, amount: total } } })).body.data).toEqual({ recordPromoterSettlement: true });
    const listed = await gql<{ promoterGroups: { members: { owed: number; settled: number }[] }[] }>(GROUPS, { tokens: owner, variables: { organizationId: org } });
    expect(listed.body.data!.promoterGroups[0].members[0]).toMatchObject({ nickname, sold: 2, settled: total, owed: 0 });

    // The promoter cannot run groups; another organization's owner sees nothing of this one.
    expect(errorCode(await gql(GROUPS, { tokens: promoter, variables: { organizationId: org } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(SETTLE, { tokens: promoter, variables: { input: { organizationId: org, userId: person.id, amount: 1 } } }))).toBe("FORBIDDEN");
    const other = await createProducer();
    const stranger = await startSession(db, other.user, new Date());
    expect(errorCode(await gql(GROUPS, { tokens: stranger, variables: { organizationId: org } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(METRICS, { tokens: stranger, variables: { input: { organizationId: org, userId: person.id } } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(INVITE, { tokens: stranger, variables: { input: { groupId: group.id, who: "x@example.com" } } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(SELL, { tokens: stranger, variables: { input: { organizationId: org, ticketTypeId: made.tickets.Mano.id, qty: 1, email: "x@example.com", firstName: "A", lastName: "B" } } }))).toBe("FORBIDDEN");
  });
});

describe("an invitation by nickname", () => {
  it("never shows the invitee's email to whoever invited them: not in the answer, the group's invitations nor anywhere in the response", async () => {
    const db = await getDb();
    // Any account can make an organization and a group: the nickname's owner is a stranger to it.
    const curious = await createProducer();
    const tokens = await startSession(db, curious.user, new Date());
    const made = await gql<{ createPromoterGroup: { id: string } }>(CREATE, { tokens, variables: { input: { organizationId: curious.organization.id, name: "Curiosos" } } });
    const groupId = made.body.data!.createPromoterGroup.id;
    const nickname = `famosa${randomTag(5)}`;
    const famous = await createTestUser({ nickname });

    for (const who of [nickname, `@${nickname}`, nickname.toUpperCase()]) {
      const invited = await gql(INVITE, { tokens, variables: { input: { groupId, who } } });
      expect(invited.body).toEqual({ data: { invitePromoter: true } });
      const listed = await gql<{ promoterGroups: { invitations: { email: string | null; who: string }[] }[] }>(GROUPS, { tokens, variables: { organizationId: curious.organization.id } });
      expect(listed.body.data!.promoterGroups[0].invitations).toEqual([expect.objectContaining({ email: null, who: `@${nickname}` })]);
      expect(JSON.stringify(listed.body).toLowerCase()).not.toContain(famous.email.toLowerCase());
    }
    // The invitation itself reaches its owner, as before.
    expect(await lastEmailTo(famous.email, TEAM_INVITATION_EMAIL_KIND)).toBeTruthy();
  });
});
