import { z } from "zod";
import {
  documentTypeSchema,
  emailSchema,
  identificationNumberSchema,
  nameSchema,
  passwordSchema,
  phoneSchema,
  requiredText,
} from "#common/validation";

/**
 * The account forms' schemas, built only from the shared field schemas in
 * common/validation.ts: Conform runs them in the browser and the actions run
 * them again with `parseWithZod` before calling the domain. Field names are
 * the GraphQL argument names.
 */
export const registerFormSchema = z.object({
  firstName: nameSchema,
  lastName: nameSchema,
  email: emailSchema,
  password: passwordSchema,
});

export const loginFormSchema = z.object({
  email: emailSchema,
  password: requiredText(),
});

export const emailFormSchema = z.object({ email: emailSchema });

export const recoverFormSchema = z.object({
  email: emailSchema,
  // The domain checks the 6 digits (and says so next to the field).
  code: requiredText(),
  password: passwordSchema,
});

export const linkSignUpFormSchema = z.object({
  token: requiredText(),
  firstName: nameSchema,
  lastName: nameSchema,
});

export { profileSchema as profileFormSchema } from "#common/validation";

/** Optional profile fields: an empty input means "clear it", sent to the domain as null. */
export const OPTIONAL_PROFILE_FIELDS = ["nickname", "documentType", "documentNumber", "address", "state", "phoneNumber"] as const;

/** What finishing a Google sign-in may ask for; each one is required there. */
const completable = {
  firstName: nameSchema,
  lastName: nameSchema,
  documentType: documentTypeSchema,
  documentNumber: identificationNumberSchema,
  phoneNumber: phoneSchema,
};
export type CompletableField = keyof typeof completable;
export const COMPLETABLE_FIELDS = Object.keys(completable) as CompletableField[];

export function isCompletableField(name: string): name is CompletableField {
  return name in completable;
}

/** The form for `/cuenta/finalizar-google`: only the fields still missing. */
export function completeProfileSchema(fields: readonly string[]) {
  const shape: Partial<Record<CompletableField, z.ZodType>> = {};
  for (const name of fields) if (isCompletableField(name)) shape[name] = completable[name];
  return z.object(shape as Record<CompletableField, z.ZodType>);
}
