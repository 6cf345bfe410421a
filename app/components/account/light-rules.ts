import type { FormRules } from "./useLightAccountForm";

/**
 * The rules of the forms that run without zod in the browser (decision 181), one per field, after the schemas
 * in ./schemas.ts; `light-rules.test.tsx` keeps both giving the same messages.
 */
export const REGISTER_RULES: FormRules = {
  firstName: { kind: "name" },
  lastName: { kind: "name" },
  email: { kind: "email" },
  password: { kind: "text", minLength: 8 },
};
export const LOGIN_RULES: FormRules = { email: { kind: "email" }, password: { kind: "text" } };
export const EMAIL_RULES: FormRules = { email: { kind: "email" } };
