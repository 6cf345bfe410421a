import { z } from "zod";
import { DATE_RANGE_MESSAGE, isWithinDateRange, parseDateTime } from "./dates";
import { parseMoney } from "./money";
import { MESSAGES, optional, provinceSchema, requiredText } from "./validation";

/**
 * Field rules for events, dates and ticket types, pure so the same schema
 * runs in the back office's forms (Conform, in the browser) and in the domain
 * (server/events/schemas.ts adds what only the server knows: stored image
 * URLs, statuses, custom fields).
 */

export const EVENT_CATEGORIES = [
  { value: "recitales", label: "Recitales" },
  { value: "fiestas", label: "Fiestas" },
  { value: "teatro", label: "Teatro" },
  { value: "stand-up", label: "Stand-up" },
  { value: "festivales", label: "Festivales" },
  { value: "deportes", label: "Deportes" },
  { value: "gastronomia", label: "Gastronomía" },
  { value: "conferencias", label: "Conferencias" },
  { value: "infantiles", label: "Infantiles" },
  { value: "otros", label: "Otros" },
] as const;
export type EventCategory = (typeof EVENT_CATEGORIES)[number]["value"];

/** The ticket types' payment methods (server/db/schema/events.ts keeps the same list; server/events/schemas.ts checks they agree). */
export const TICKET_PAYMENT_METHODS = ["MercadoPagoAccount", "BankAccount", "PromoterAccount"] as const;

export const EVENT_MESSAGES = {
  date: "Ingresá una fecha y hora válidas",
  endsBeforeStart: "El fin tiene que ser después del inicio",
  doorsAfterStart: "La apertura de puertas tiene que ser antes del inicio",
  price: "Ingresá un precio válido (por ejemplo 1500 o 1.500,50)",
  integer: "Ingresá un número entero",
  maxBelowMin: "El máximo por compra no puede ser menor que el mínimo",
  stockBelowSold: "El stock no puede ser menor que lo ya vendido",
  salesWindow: "El fin de la venta tiene que ser después del inicio",
  accessCode: "El código de acceso no puede tener espacios y debe tener entre 3 y 30 caracteres",
  pixel: "El ID del píxel solo puede tener números",
  atLeastOneDate: "Agregá al menos una fecha",
  soldDateInPast: "Esta fecha ya tiene entradas vendidas: no puede quedar en el pasado.",
  soldDateTooEarly: "Esta fecha ya tiene entradas vendidas: podés postergarla, pero adelantarla como mucho 24 horas.",
} as const;

/**
 * How far a date with sales may be brought forward (decision 145). Postponing is free; bringing it forward
 * more than this changes the night people bought for (and, with it, when its money is released).
 */
export const SOLD_DATE_MAX_ADVANCE_HOURS = 24;

/**
 * The bound on moving a date that already sold tickets (decision 145), as field errors on `startsAt` /
 * `endsAt`: a changed start or end never in the past, and never more than SOLD_DATE_MAX_ADVANCE_HOURS
 * earlier than it was. Null when the move is allowed.
 */
export function soldDateMoveProblem(
  current: { startsAt: Date; endsAt: Date },
  next: { startsAt: Date; endsAt: Date },
  now: Date,
): { field: "startsAt" | "endsAt"; reason: "SOLD_DATE_IN_PAST" | "SOLD_DATE_TOO_EARLY"; message: string } | null {
  for (const field of ["startsAt", "endsAt"] as const) {
    if (next[field].getTime() === current[field].getTime()) continue;
    if (next[field] < now) return { field, reason: "SOLD_DATE_IN_PAST", message: EVENT_MESSAGES.soldDateInPast };
    if (current[field].getTime() - next[field].getTime() > SOLD_DATE_MAX_ADVANCE_HOURS * 3600_000) {
      return { field, reason: "SOLD_DATE_TOO_EARLY", message: EVENT_MESSAGES.soldDateTooEarly };
    }
  }
  return null;
}

export const dateTimeSchema = z
  .union([z.string(), z.date()])
  .transform((v, issue) => {
    const parsed = v instanceof Date ? v : parseDateTime(v);
    if (!parsed || Number.isNaN(parsed.getTime())) {
      issue.addIssue({ code: "custom", message: EVENT_MESSAGES.date });
      return z.NEVER;
    }
    if (!isWithinDateRange(parsed)) {
      issue.addIssue({ code: "custom", message: DATE_RANGE_MESSAGE });
      return z.NEVER;
    }
    return parsed;
  });

/*
 * Text first in these unions: Conform (in the browser) coerces a form's text for
 * every number option it meets, so with the number first "9.500" became 9.5 and
 * was refused there while the server read it as $ 9.500. Plain zod (the server)
 * answers the same in either order.
 */
export const moneySchema = z.union([z.string(), z.number()]).transform((v, issue) => {
  const centavos = typeof v === "number" ? (Number.isInteger(v) && v >= 0 ? v : null) : parseMoney(v);
  if (centavos === null || centavos < 0 || centavos > 100_000_000_00) {
    issue.addIssue({ code: "custom", message: EVENT_MESSAGES.price });
    return z.NEVER;
  }
  return centavos;
});

export const intSchema = (min: number, max: number) =>
  z.union([z.string(), z.number()]).transform((v, issue) => {
    const n = typeof v === "number" ? v : /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n)) {
      issue.addIssue({ code: "custom", message: v === "" ? MESSAGES.required : EVENT_MESSAGES.integer });
      return z.NEVER;
    }
    if (n < min || n > max) {
      issue.addIssue({ code: "custom", message: `Ingresá un número entre ${min} y ${max}` });
      return z.NEVER;
    }
    return n;
  });

export const booleanish = z.union([z.boolean(), z.string()]).transform((v) => v === true || v === "on" || v === "true");

export const eventDateFields = {
  startsAt: dateTimeSchema,
  endsAt: dateTimeSchema,
  doorsAt: optional(dateTimeSchema),
};

export function eventDateRefinements(d: { startsAt: Date; endsAt: Date; doorsAt?: Date }, issue: z.RefinementCtx) {
  if (d.endsAt <= d.startsAt) issue.addIssue({ code: "custom", path: ["endsAt"], message: EVENT_MESSAGES.endsBeforeStart });
  if (d.doorsAt && d.doorsAt > d.startsAt) issue.addIssue({ code: "custom", path: ["doorsAt"], message: EVENT_MESSAGES.doorsAfterStart });
}

export const eventDateInput = z.object(eventDateFields).superRefine(eventDateRefinements);

/** An event's own fields, except its image (only the server knows which URLs are ours). */
export const eventTextFields = {
  name: requiredText().refine((v) => v.length <= 120, "Usá hasta 120 caracteres"),
  description: z.string().trim().max(10_000, "Usá hasta 10000 caracteres").default(""),
  category: z.enum(EVENT_CATEGORIES.map((c) => c.value) as [EventCategory, ...EventCategory[]], { error: "Elegí una categoría" }).default("otros"),
  minAge: intSchema(0, 99).default(0),
  venueName: requiredText(),
  venueAddress: requiredText(),
  city: requiredText(),
  province: provinceSchema,
};

export const accessCodeSchema = z
  .string()
  .trim()
  .refine((v) => /^\S{3,30}$/.test(v), EVENT_MESSAGES.accessCode);

export const ticketTypeFields = {
  name: requiredText().refine((v) => v.length <= 80, "Usá hasta 80 caracteres"),
  description: z.string().trim().max(1000).default(""),
  eventDateId: optional(z.string().uuid()),
  price: moneySchema,
  stock: intSchema(0, 1_000_000),
  minPerOrder: intSchema(1, 100).default(1),
  maxPerOrder: intSchema(1, 100).default(10),
  salesStartAt: optional(dateTimeSchema),
  salesEndAt: optional(dateTimeSchema),
  hidden: booleanish.default(false),
  presale: booleanish.default(false),
  accessCode: optional(accessCodeSchema),
  paymentMethod: z.enum(TICKET_PAYMENT_METHODS, { error: "Elegí un medio de cobro" }).default("MercadoPagoAccount"),
};

export function ticketTypeRefinements(t: { minPerOrder: number; maxPerOrder: number; salesStartAt?: Date; salesEndAt?: Date }, issue: z.RefinementCtx) {
  if (t.maxPerOrder < t.minPerOrder) issue.addIssue({ code: "custom", path: ["maxPerOrder"], message: EVENT_MESSAGES.maxBelowMin });
  if (t.salesStartAt && t.salesEndAt && t.salesEndAt <= t.salesStartAt) {
    issue.addIssue({ code: "custom", path: ["salesEndAt"], message: EVENT_MESSAGES.salesWindow });
  }
}

export const ticketTypeInput = z.object(ticketTypeFields).superRefine(ticketTypeRefinements);
