import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { createTestUser } from "#tests/support/context";
import { errorCode, gql } from "#tests/support/graphql";

const code = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });

describe("two-factor operations over GraphQL", () => {
  it("enrols, returns recovery codes once, verifies a second device and turns off with a code", async () => {
    const user = await createTestUser({ roles: ["producer"] });
    const tokens = await startSession(await getDb(), user, new Date());
    const started = await gql<{ startTwoFactorEnrolment: { secret: string; otpauthUri: string; qrSvg: string } }>(
      `mutation { startTwoFactorEnrolment { secret otpauthUri qrSvg } }`,
      { tokens },
    );
    expect(started.body.errors).toBeUndefined();
    const { secret } = started.body.data!.startTwoFactorEnrolment;

    const bad = await gql(`mutation($code: String!) { confirmTwoFactorEnrolment(code: $code) { recoveryCodes } }`, { tokens, variables: { code: "abc" } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    expect(bad.body.errors![0].extensions!.fieldErrors).toEqual({ code: ["Ingresá los 6 números de tu app o un código de recuperación"] });

    const confirmed = await gql<{ confirmTwoFactorEnrolment: { recoveryCodes: string[] } }>(
      `mutation($code: String!) { confirmTwoFactorEnrolment(code: $code) { recoveryCodes } }`,
      { tokens, variables: { code: code(secret) } },
    );
    expect(confirmed.body.data!.confirmTwoFactorEnrolment.recoveryCodes).toHaveLength(10);

    const other = await startSession(await getDb(), user, new Date());
    const before = await gql<{ twoFactorStatus: { enabled: boolean; verifiedUntil: string | null } }>(`{ twoFactorStatus { enabled verifiedUntil recoveryCodesLeft } }`, { tokens: other });
    expect(before.body.data!.twoFactorStatus).toMatchObject({ enabled: true, verifiedUntil: null });
    const verified = await gql<{ verifySecondFactor: { verifiedUntil: string | null } }>(`mutation($code: String!) { verifySecondFactor(code: $code) { verifiedUntil } }`, {
      tokens: other,
      variables: { code: code(secret, 1) },
    });
    expect(verified.body.data!.verifySecondFactor.verifiedUntil).toMatch(/-03:00$/);

    const off = await gql<{ disableTwoFactor: { enabled: boolean } }>(`mutation($code: String!) { disableTwoFactor(code: $code) { enabled } }`, {
      tokens,
      variables: { code: confirmed.body.data!.confirmTwoFactorEnrolment.recoveryCodes[0] },
    });
    expect(off.body.data!.disableTwoFactor.enabled).toBe(false);
    expect(errorCode(await gql(`{ twoFactorStatus { enabled } }`))).toBe("UNAUTHENTICATED");
  });
});
