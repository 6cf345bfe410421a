import { z } from "zod";
import { optional, requiredText, PATTERNS } from "#common/validation";
import { venueCoordinateFields } from "#common/venue-coordinates";
import { CUSTOM_FIELD_KINDS, PAYMENT_METHOD_KINDS, STATUSES } from "#server/db/schema";
import { storedImageUrlSchema } from "#server/media/images";
import {
  booleanish,
  dateTimeSchema,
  EVENT_CATEGORIES,
  EVENT_MESSAGES,
  eventDateInput,
  eventTextFields,
  intSchema,
  moneySchema,
  TICKET_PAYMENT_METHODS,
  ticketTypeFields,
  ticketTypeInput,
  ticketTypeRefinements,
} from "#common/events";

/**
 * Field rules for events and tickets (the spec leaves them to us; see docs/decisions/).
 * The pure ones live in common/events.ts, so the back office's forms check
 * them in the browser too; this module adds what only the server knows.
 */
export {
  dateTimeSchema,
  EVENT_CATEGORIES,
  EVENT_MESSAGES,
  eventDateInput,
  intSchema,
  moneySchema,
  ticketTypeFields,
  ticketTypeInput,
  ticketTypeRefinements,
};

// The browser-safe list of payment methods is the database's.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const paymentMethodsAgree: Same<(typeof TICKET_PAYMENT_METHODS)[number], (typeof PAYMENT_METHOD_KINDS)[number]> = true;
void paymentMethodsAgree;

export const eventFields = {
  ...eventTextFields,
  // Optional, both or neither (venueCoordinatesRefinement): the Apple pass's lock-screen place (docs/wallet.md).
  ...venueCoordinateFields,
  imageUrl: optional(storedImageUrlSchema),
};

export const statusSchema = z.enum(STATUSES, { error: "Estado inválido" });

export const pixelIdSchema = z
  .string()
  .trim()
  .refine((v) => v === "" || PATTERNS.pixelId.test(v), EVENT_MESSAGES.pixel);

export const customFieldInput = z
  .object({
    label: requiredText().refine((v) => v.length <= 80, "Usá hasta 80 caracteres"),
    kind: z.enum(CUSTOM_FIELD_KINDS, { error: "Elegí un tipo de campo" }),
    options: z.array(z.string().trim().min(1)).default([]),
    required: booleanish.default(false),
  })
  .superRefine((f, issue) => {
    if (f.kind === "select" && f.options.length < 2) {
      issue.addIssue({ code: "custom", path: ["options"], message: "Una lista necesita al menos dos opciones" });
    }
  });
