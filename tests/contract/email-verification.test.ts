import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { createTestUser } from "#tests/support/context";
import { errorCode, gql } from "#tests/support/graphql";
import { lastEmailTo } from "#tests/support/mailbox";

const SEND = `mutation { sendEmailVerification { emailTo logEmailId } }`;
const VERIFY = `mutation($token: String!) { verifyEmail(token: $token) { email alreadyVerified joinedOrders } }`;

describe("sendEmailVerification and verifyEmail (decision 115)", () => {
  it("the signed-in person gets the link; its token verifies once, without a session; then sending again is CONFLICT", async () => {
    const user = await createTestUser();
    const tokens = await startSession(await getDb(), user, new Date());
    expect(errorCode(await gql(SEND))).toBe("UNAUTHENTICATED");
    const sent = await gql<{ sendEmailVerification: { emailTo: string; logEmailId: string } }>(SEND, { tokens, ip: "198.51.100.61" });
    expect(sent.body.data?.sendEmailVerification).toEqual({ emailTo: user.email, logEmailId: expect.any(String) });
    const token = decodeURIComponent(/[?&]token=([^\s&"<]+)/.exec((await lastEmailTo(user.email, "email-verification")).text)![1]);

    const first = await gql(VERIFY, { variables: { token } });
    expect(first.body.data).toEqual({ verifyEmail: { email: user.email, alreadyVerified: false, joinedOrders: 0 } });
    const again = await gql(VERIFY, { variables: { token } });
    expect(again.body.data).toEqual({ verifyEmail: { email: user.email, alreadyVerified: true, joinedOrders: 0 } });
    expect(errorCode(await gql(SEND, { tokens, ip: "198.51.100.61" }))).toBe("CONFLICT");

    const bad = await gql(VERIFY, { variables: { token: "roto" } });
    expect(bad.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { token: ["El enlace para confirmar tu email no es válido o ya venció. Pedí uno nuevo desde Mi cuenta."] } });
  });
});
