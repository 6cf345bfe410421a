import { z } from "zod";
import { INVALID_CUIT, isValidCuit, normalizeCuit } from "./cuit";
import { emailSchema, optional, phoneSchema, requiredText } from "./validation";

/**
 * An organization's own fields (its logo and slug aside: only the server
 * knows which image URLs are ours and which slugs are taken), shared by the
 * back office's form in the browser (Conform) and server/organizations.
 */
export const organizationTextFields = {
  name: requiredText().refine((v) => v.length <= 80, "Usá hasta 80 caracteres"),
  description: optional(z.string().trim().max(2000, "Usá hasta 2000 caracteres")),
  cuit: requiredText()
    .transform(normalizeCuit)
    .refine(isValidCuit, INVALID_CUIT),
  contactEmail: emailSchema,
  contactPhone: optional(phoneSchema),
};
