import { z } from "zod";
import { bankAccountFields } from "#common/bank-accounts";
import { couponFieldProblems, couponFields } from "#common/coupons";
import { EVENT_CATEGORIES, EVENT_MESSAGES, eventDateInput, eventTextFields, ticketTypeInput, type EventCategory } from "#common/events";
import { organizationTextFields } from "#common/organizations";
import { venueCoordinateFields, venueCoordinatesRefinement } from "#common/venue-coordinates";
import { emailSchema } from "#common/validation";

/**
 * The back office's form schemas, for Conform in the browser (BackofficeForm's
 * `schema`). Built only from the field schemas in common/ that the domain
 * functions (server/) use too, so the browser says what the server would
 * say; the server checks everything again (and what only it knows: a slug
 * taken, a stored image, the stock already sold). Names are the inputs'
 * (`dates[0].startsAt`).
 */

/** The select starts empty: "Elegí una categoría" rather than the domain's default. */
const category = z.enum(EVENT_CATEGORIES.map((c) => c.value) as [EventCategory, ...EventCategory[]], { error: "Elegí una categoría" });

/** /organizacion/evento/crear: the event with its dates and ticket types. */
export const createEventFormSchema = z.object({
  ...eventTextFields,
  category,
  dates: z.array(eventDateInput).min(1, EVENT_MESSAGES.atLeastOneDate),
  ticketTypes: z.array(ticketTypeInput).default([]),
});

/** The event's own data on /organizacion/evento/editar/{slug}. */
export const eventFormSchema = z.object({ ...eventTextFields, category, ...venueCoordinateFields }).superRefine(venueCoordinatesRefinement);

/** One date (start, end, doors), on the edit page. */
export const eventDateFormSchema = eventDateInput;

/** One ticket type, on the tickets page. */
export const ticketTypeFormSchema = ticketTypeInput;

/** The coupon form: checked boxes arrive as `ticketTypeIds[i]` with gaps. */
export const couponFormSchema = couponFields
  .extend({ ticketTypeIds: z.preprocess((v) => (Array.isArray(v) ? v.filter((id) => typeof id === "string" && id) : v), couponFields.shape.ticketTypeIds) })
  .superRefine((data, issue) => {
    for (const [path, messages] of Object.entries(couponFieldProblems(data))) for (const message of messages) issue.addIssue({ code: "custom", path: [path], message });
  });

export const bankAccountFormSchema = z.object(bankAccountFields);

export const organizationFormSchema = z.object(organizationTextFields);

/** "Invitar a alguien" on /organizacion/operadores (the role comes from a select). */
export const teamInvitationFormSchema = z.object({ email: emailSchema });
