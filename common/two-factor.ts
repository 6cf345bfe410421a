import { z } from "zod";

/**
 * The code a person types to prove the second factor: the 6 digits of their
 * authenticator app, or one of their recovery codes (10 letters and digits,
 * shown as XXXXX-XXXXX). Spaces and dashes are ignored, case too. Browser-safe:
 * the page checks it before sending and the domain again.
 */
export const TWO_FACTOR_CODE_MESSAGE = "Ingresá los 6 números de tu app o un código de recuperación";

export const twoFactorCodeSchema = z
  .string({ error: TWO_FACTOR_CODE_MESSAGE })
  .transform((v) => v.replace(/[\s-]/g, "").toUpperCase())
  .refine((v) => /^\d{6}$/.test(v) || /^[A-Z0-9]{10}$/.test(v), TWO_FACTOR_CODE_MESSAGE);

export const twoFactorCodeForm = z.object({ code: twoFactorCodeSchema });

/** /cuenta/verificacion: the code, and whether to remember this browser (decision 133). */
export const verifySecondFactorForm = twoFactorCodeForm.extend({ rememberDevice: z.boolean().optional() });
