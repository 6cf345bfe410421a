import { builder } from "./builder";
import { isoDate } from "./scalars";
import * as twoFactor from "#server/accounts/two-factor";

/**
 * Two-factor sign-in for integrators and the app alike: the same domain
 * functions as /cuenta/seguridad and /cuenta/verificacion.
 */
const TwoFactorStatus = builder.objectRef<twoFactor.TwoFactorStatus>("TwoFactorStatus").implement({
  fields: (t) => ({
    enabled: t.exposeBoolean("enabled", { nullable: false }),
    verifiedUntil: t.string({
      description: "Until when this sign-in counts as verified for sensitive actions; null when it has not proved the second factor (or has none).",
      resolve: (s) => isoDate(s.verifiedUntil),
    }),
    recoveryCodesLeft: t.exposeInt("recoveryCodesLeft", { nullable: false }),
  }),
});

const TwoFactorEnrolment = builder.objectRef<{ secret: string; otpauthUri: string; qrSvg: string }>("TwoFactorEnrolment").implement({
  fields: (t) => ({
    secret: t.exposeString("secret", { nullable: false, description: "Base32 key, for typing into the app by hand." }),
    otpauthUri: t.exposeString("otpauthUri", { nullable: false, description: "otpauth://totp/… for a QR code." }),
    qrSvg: t.exposeString("qrSvg", { nullable: false, description: "The otpauth URI as an SVG QR code." }),
  }),
});

const RecoveryCodes = builder.objectRef<{ recoveryCodes: string[] }>("TwoFactorRecoveryCodes").implement({
  fields: (t) => ({
    recoveryCodes: t.exposeStringList("recoveryCodes", { nullable: false, description: "Ten one-time codes (XXXXX-XXXXX), shown only this once." }),
  }),
});

builder.queryField("twoFactorStatus", (t) =>
  t.field({
    type: TwoFactorStatus,
    nullable: false,
    description: "The signed-in person's second factor and whether this sign-in has proved it.",
    resolve: (_root, _args, { ctx }) => twoFactor.twoFactorStatus(ctx),
  }),
);

builder.mutationFields((t) => ({
  startTwoFactorEnrolment: t.field({
    type: TwoFactorEnrolment,
    nullable: false,
    description: "Starts (or restarts) enrolment with a new key; nothing changes until confirmTwoFactorEnrolment. CONFLICT when already on.",
    resolve: (_root, _args, { ctx }) => twoFactor.startTwoFactorEnrolment(ctx),
  }),
  confirmTwoFactorEnrolment: t.field({
    type: RecoveryCodes,
    nullable: false,
    description: "Turns it on with a first code from the app; returns the recovery codes. A wrong code is BAD_USER_INPUT on `code`.",
    args: { code: t.arg.string({ required: true }) },
    resolve: (_root, { code }, { ctx }) => twoFactor.confirmTwoFactorEnrolment(ctx, { code }),
  }),
  verifySecondFactor: t.field({
    type: TwoFactorStatus,
    nullable: false,
    description: "Proves the second factor for this sign-in (an app code or a recovery code, each accepted once). Five wrong codes in 15 minutes: TOO_MANY_REQUESTS.",
    args: { code: t.arg.string({ required: true }) },
    resolve: (_root, { code }, { ctx }) => twoFactor.verifySecondFactor(ctx, { code }),
  }),
  disableTwoFactor: t.field({
    type: TwoFactorStatus,
    nullable: false,
    description: "Turns it off; needs a valid code.",
    args: { code: t.arg.string({ required: true }) },
    resolve: (_root, { code }, { ctx }) => twoFactor.disableTwoFactor(ctx, { code }),
  }),
}));
