import "./campaigns";
import { graphql, printSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { createEventWithTickets } from "#tests/support/factories";
import { schema } from "./schema";

/*
 * server/graphql/schema.ts does not import this module yet (it is registered
 * there by whoever owns that file): imported first here, the schema includes
 * it, so the operations are checked against the same domain functions.
 */

const run = (source: string, ctx: unknown, variableValues: Record<string, unknown> = {}) => graphql({ schema, source, variableValues, contextValue: { ctx } });

describe("campaigns over GraphQL", () => {
  it("creates a template, refuses an unknown variable with BAD_USER_INPUT, counts an audience, creates a draft and reads it back", async () => {
    const made = await createEventWithTickets();
    expect(printSchema(schema)).toContain("createCampaign(input: CreateCampaignInput!): Campaign!");
    const bad = await run(`mutation ($input: EmailTemplateInput!) { createEmailTemplate(input: $input) { id } }`, made.ctx, {
      input: { organizationId: made.organization.id, name: "X", subject: "Hola", body: "{{apodo}}" },
    });
    // yoga turns the domain error into extensions.code (server/graphql/yoga.ts); here it is the domain error itself.
    expect((bad.errors?.[0].originalError as { code?: string })?.code).toBe("BAD_USER_INPUT");
    const created = await run(`mutation ($input: EmailTemplateInput!) { createEmailTemplate(input: $input) { id name } }`, made.ctx, {
      input: { organizationId: made.organization.id, name: "Aviso", subject: "Hola {{nombre}}", body: "Nos vemos en {{evento}}." },
    });
    const templateId = (created.data?.createEmailTemplate as { id: string }).id;
    const size = await run(`query ($input: CampaignAudienceInput!) { campaignAudienceSize(input: $input) }`, made.ctx, { input: { organizationId: made.organization.id, audience: "event", eventId: made.event.id } });
    expect(size.data?.campaignAudienceSize).toBe(0);
    const campaign = await run(`mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) { id status audience audienceSize counts { sent } } }`, made.ctx, {
      input: { organizationId: made.organization.id, name: "Preventa", templateId, audience: "event", eventId: made.event.id },
    });
    expect(campaign.errors).toBeUndefined();
    expect(campaign.data?.createCampaign).toMatchObject({ status: "draft", audience: "event", audienceSize: 0, counts: { sent: 0 } });
    const empty = await run(`mutation ($id: ID!) { sendCampaign(id: $id) { id } }`, made.ctx, { id: (campaign.data?.createCampaign as { id: string }).id });
    expect((empty.errors?.[0].originalError as { code?: string })?.code).toBe("CONFLICT");
  });
});
