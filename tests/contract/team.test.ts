import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { sessionTokensFor } from "#tests/support/context";
import { getDb } from "#server/db/client";
import { createTestUser } from "#tests/support/context";
import { createProducer } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";
import { lastEmailTo } from "#tests/support/mailbox";

const INVITE = `mutation($org: ID!, $email: String!, $role: String!) { inviteMember(organizationId: $org, email: $email, role: $role) { id email role expiresAt } }`;
const ACCEPT = `mutation($token: String!) { acceptTeamInvitation(token: $token) { organizationId organizationName } }`;
const TEAM = `query($org: ID!) { team(organizationId: $org) { members { userId email role } invitations { email role } } }`;
const CHANGE = `mutation($org: ID!, $user: ID!, $role: String!) { changeMemberRole(organizationId: $org, userId: $user, role: $role) }`;

describe("the team over GraphQL", () => {
  it("invite, accept with the emailed token, list, and the role rules as typed errors", async () => {
    const owner = await createProducer();
    const db = await getDb();
    const tokens = await sessionTokensFor(owner.user.id, { secondFactor: true });
    const person = await createTestUser();
    const invited = await gql<{ inviteMember: { email: string; role: string } }>(INVITE, { tokens, variables: { org: owner.organization.id, email: person.email, role: "admin" } });
    expect(invited.body.data!.inviteMember).toMatchObject({ email: person.email.toLowerCase(), role: "admin" });
    expect(errorCode(await gql(INVITE, { tokens, variables: { org: owner.organization.id, email: person.email, role: "jefe" } }))).toBe("BAD_USER_INPUT");

    const mail = await lastEmailTo(person.email);
    const token = /\/organizacion\/operadores\/aceptar\/([A-Za-z0-9_-]+)/.exec(mail!.text ?? mail!.html)![1];
    const personTokens = await sessionTokensFor(person.id, { secondFactor: true });
    expect(errorCode(await gql(ACCEPT, { variables: { token } }))).toBe("UNAUTHENTICATED");
    const accepted = await gql<{ acceptTeamInvitation: { organizationId: string } }>(ACCEPT, { tokens: personTokens, variables: { token } });
    expect(accepted.body.data!.acceptTeamInvitation.organizationId).toBe(owner.organization.id);
    expect(errorCode(await gql(ACCEPT, { tokens: personTokens, variables: { token } }))).toBe("CONFLICT");

    const listed = await gql<{ team: { members: { email: string; role: string }[]; invitations: unknown[] } }>(TEAM, { tokens, variables: { org: owner.organization.id } });
    expect(listed.body.data!.team.members.map((m) => m.role).sort()).toEqual(["admin", "owner"]);
    expect(listed.body.data!.team.invitations).toEqual([]);

    // The new admin may not demote the owner.
    expect(errorCode(await gql(CHANGE, { tokens: personTokens, variables: { org: owner.organization.id, user: owner.user.id, role: "staff" } }))).toBe("FORBIDDEN");
    const stranger = await createProducer();
    const strangerTokens = await startSession(db, stranger.user, new Date());
    expect(errorCode(await gql(TEAM, { tokens: strangerTokens, variables: { org: owner.organization.id } }))).toBe("FORBIDDEN");
  });
});
