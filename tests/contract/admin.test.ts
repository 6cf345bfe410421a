import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { createTestUser } from "#tests/support/context";
import { createEventWithReleasedSales } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";

const ORGANIZATIONS = `query PlatformOrganizations($input: PlatformOrganizationsInput) {
  platformOrganizations(input: $input) { total page pages items { id name slug cuit members events paidOrders grossSold grossSoldFormatted balance pendingWithdrawals createdAt } }
}`;
const REFUNDS = `query RefundsOverview($input: RefundsOverviewInput) {
  refundsOverview(input: $input) { status totals { refundedCount chargebackCount pendingRequests since } requests { total page items { code } } providerRefunds { id } chargebacks { orderCode } }
}`;

describe("platformOrganizations and refundsOverview over GraphQL", () => {
  it("answer platform admins; FORBIDDEN for an organizer, UNAUTHENTICATED without a session, BAD_USER_INPUT for a status that does not exist", async () => {
    const made = await createEventWithReleasedSales(2);
    const db = await getDb();
    const admin = await createTestUser({ roles: ["admin"] });
    const adminTokens = await startSession(db, admin, new Date());

    const list = await gql<{ platformOrganizations: { total: number; page: number; items: Record<string, unknown>[] } }>(ORGANIZATIONS, {
      tokens: adminTokens,
      variables: { input: { search: made.organization.slug, page: -4 } },
    });
    expect(list.body.errors).toBeUndefined();
    expect(list.body.data!.platformOrganizations).toMatchObject({ total: 1, page: 1 });
    expect(list.body.data!.platformOrganizations.items[0]).toMatchObject({
      id: made.organization.id,
      cuit: "30712345671",
      members: 1,
      events: 1,
      paidOrders: 1,
      grossSold: made.order.total,
      balance: made.order.total - made.order.serviceFee,
      pendingWithdrawals: 0,
    });
    expect(list.body.data!.platformOrganizations.items[0].createdAt).toMatch(/-03:00$/);
    expect((await gql(ORGANIZATIONS, { tokens: adminTokens })).body.errors).toBeUndefined();

    const refunds = await gql<{ refundsOverview: { status: string | null; requests: { total: number } } }>(REFUNDS, {
      tokens: adminTokens,
      variables: { input: { status: "pending" } },
    });
    expect(refunds.body.errors).toBeUndefined();
    expect(refunds.body.data!.refundsOverview).toMatchObject({ status: "pending", requests: { total: 0 } });
    const bad = await gql(REFUNDS, { tokens: adminTokens, variables: { input: { status: "nope" } } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    expect(bad.body.errors![0].extensions!.fieldErrors).toEqual({ status: ["Elegí un estado válido: pendiente, devuelta o rechazada."] });

    const ownerTokens = await startSession(db, made.user, new Date());
    expect(errorCode(await gql(ORGANIZATIONS, { tokens: ownerTokens }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(REFUNDS, { tokens: ownerTokens }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(ORGANIZATIONS))).toBe("UNAUTHENTICATED");
    expect(errorCode(await gql(REFUNDS))).toBe("UNAUTHENTICATED");
  });
});
