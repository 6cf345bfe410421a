import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { verifyAccessToken } from "#server/auth/tokens";
import { users } from "#server/db/schema";
import { createTestUser, ctxAs } from "#tests/support/context";
import { googleProfile } from "#tests/support/msw/google";
import { GOOGLE_ACCOUNT_MISMATCH, GOOGLE_EMAIL_NOT_VERIFIED, signInWithGoogle } from "./google";

async function emailOf(accessToken: string) {
  const check = await verifyAccessToken(accessToken, new Date());
  return check.ok ? check.claims.email : null;
}

describe("signInWithGoogle", () => {
  it("creates the account for a new Google profile and lists the fields still missing", async () => {
    const ctx = await ctxAs();
    const profile = googleProfile({ given_name: "Martín", family_name: "Gómez", email: "Martin.Gomez@Gmail.com" });
    const result = await signInWithGoogle(ctx, profile);
    expect(result.created).toBe(true);
    expect(result.fieldsToComplete).toEqual(["documentType", "documentNumber", "phoneNumber"]);
    expect(await emailOf(result.accessToken)).toBe("martin.gomez@gmail.com");
    const [row] = await ctx.db.select().from(users).where(eq(users.googleId, profile.sub));
    expect(row).toMatchObject({ email: "martin.gomez@gmail.com", firstName: "Martín", lastName: "Gómez" });
  });

  it("does not keep names our forms would refuse; they are asked instead", async () => {
    const ctx = await ctxAs();
    const result = await signInWithGoogle(ctx, googleProfile({ given_name: "J.", family_name: "O'Brien" }));
    expect(result.fieldsToComplete).toEqual(["firstName", "lastName", "documentType", "documentNumber", "phoneNumber"]);
  });

  it("the same Google account comes back to the same user, even after changing its email at Google", async () => {
    const ctx = await ctxAs();
    const profile = googleProfile();
    const first = await signInWithGoogle(ctx, profile);
    const again = await signInWithGoogle(ctx, { ...profile, email: "cambiado@gmail.com" });
    expect(again.created).toBe(false);
    const a = await verifyAccessToken(first.accessToken, new Date());
    const b = await verifyAccessToken(again.accessToken, new Date());
    expect(a.ok && b.ok && a.claims.sub === b.claims.sub).toBe(true);
  });

  it("links an existing account only when Google verified the email", async () => {
    const ctx = await ctxAs();
    const existing = await createTestUser();
    await expect(signInWithGoogle(ctx, googleProfile({ email: existing.email, email_verified: false }))).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: GOOGLE_EMAIL_NOT_VERIFIED,
    });
    // Google's userinfo may say "true" as a string in older answers.
    const linked = await signInWithGoogle(ctx, { ...googleProfile({ email: existing.email }), email_verified: "true" });
    expect(linked.created).toBe(false);
    const [row] = await ctx.db.select().from(users).where(eq(users.id, existing.id));
    expect(row.googleId).toBeTruthy();
  });

  it("refuses an email already linked to another Google account", async () => {
    const ctx = await ctxAs();
    const existing = await createTestUser({ googleId: "999999999999999999999" });
    await expect(signInWithGoogle(ctx, googleProfile({ email: existing.email }))).rejects.toMatchObject({
      code: "CONFLICT",
      message: GOOGLE_ACCOUNT_MISMATCH,
    });
  });

  it("refuses a profile without the account id", async () => {
    const ctx = await ctxAs();
    await expect(signInWithGoogle(ctx, { email: "x@gmail.com", email_verified: true })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
  });
});
