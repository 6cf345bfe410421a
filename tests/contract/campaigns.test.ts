import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { memberships } from "#server/db/schema";
import { createTestUser } from "#tests/support/context";
import { createEventWithTickets, createProducer } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";

const CREATE_TEMPLATE = /* GraphQL */ `
  mutation CreateEmailTemplate($input: EmailTemplateInput!) { createEmailTemplate(input: $input) { id name subject body } }
`;
const AUDIENCE = /* GraphQL */ `
  query CampaignAudienceSize($input: CampaignAudienceInput!) { campaignAudienceSize(input: $input) }
`;
const CREATE_CAMPAIGN = /* GraphQL */ `
  mutation CreateCampaign($input: CreateCampaignInput!) { createCampaign(input: $input) { id status audience audienceSize counts { sent failed pending skipped } } }
`;
const SEND = /* GraphQL */ `
  mutation SendCampaign($id: ID!) { sendCampaign(id: $id) { id status } }
`;
const LOG = /* GraphQL */ `
  query EmailLog($filter: EmailLogFilter!) { emailLog(filter: $filter) { items { id to subject kind status createdAt } total page limit } }
`;

describe("campaigns over GraphQL", () => {
  it("a marketing member makes a template and a draft campaign; bad input, empty audiences and other organizations are refused with their codes", async () => {
    const made = await createEventWithTickets();
    const db = await getDb();
    const person = await createTestUser();
    await db.insert(memberships).values({ organizationId: made.organization.id, userId: person.id, role: "marketing" });
    const marketing = await startSession(db, person, new Date());
    const organizationId = made.organization.id;

    const bad = await gql(CREATE_TEMPLATE, { tokens: marketing, variables: { input: { organizationId, name: "X", subject: "Hola", body: "{{apodo}}" } } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    expect(Object.keys(bad.body.errors![0].extensions!.fieldErrors as object)).toEqual(["body"]);
    const created = await gql<{ createEmailTemplate: { id: string } }>(CREATE_TEMPLATE, { tokens: marketing, variables: { input: { organizationId, name: "Aviso", subject: "Hola {{nombre}}", body: "Nos vemos en **{{evento}}**." } } });
    expect(created.body.errors).toBeUndefined();
    const templateId = created.body.data!.createEmailTemplate.id;

    const size = await gql(AUDIENCE, { tokens: marketing, variables: { input: { organizationId, audience: "event", eventId: made.event.id } } });
    expect(size.body.data).toEqual({ campaignAudienceSize: 0 });
    const campaign = await gql<{ createCampaign: { id: string } }>(CREATE_CAMPAIGN, { tokens: marketing, variables: { input: { organizationId, name: "Preventa", templateId, audience: "event", eventId: made.event.id } } });
    expect(campaign.body.data!.createCampaign).toMatchObject({ status: "draft", audience: "event", audienceSize: 0, counts: { sent: 0 } });
    expect(errorCode(await gql(SEND, { tokens: marketing, variables: { id: campaign.body.data!.createCampaign.id } }))).toBe("CONFLICT");
    expect((await gql(LOG, { tokens: marketing, variables: { filter: { organizationId } } })).body.errors).toBeUndefined();

    // Another organization's owner sees none of it.
    const other = await createProducer();
    const stranger = await startSession(db, other.user, new Date());
    expect(errorCode(await gql(AUDIENCE, { tokens: stranger, variables: { input: { organizationId, audience: "organization" } } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(LOG, { tokens: stranger, variables: { filter: { organizationId } } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(SEND, { tokens: stranger, variables: { id: campaign.body.data!.createCampaign.id } }))).toBe("FORBIDDEN");
  });
});
