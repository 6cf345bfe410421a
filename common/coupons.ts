import { z } from "zod";
import { dateTimeSchema, moneySchema } from "./events";

/**
 * A coupon's field rules, pure so the back office's coupon form checks them
 * in the browser (Conform) exactly as server/coupons/coupons.ts does.
 */

export const COUPON_CODE_PATTERN = /^[A-Za-z0-9_-]{3,30}$/;

export const COUPON_MESSAGES = {
  code: "Usá de 3 a 30 letras, números, guiones o guiones bajos",
  codeSpaces: "El código no puede tener espacios",
  codeTaken: "Ya hay un cupón con ese código en este evento",
  kind: "Elegí el tipo de descuento",
  percent: "Ingresá un porcentaje entre 1 y 100",
  amount: "Ingresá un monto mayor a 0 (por ejemplo 1500 o 1.500,50)",
  maxUses: "Ingresá un número entero entre 1 y 1.000.000, o dejalo vacío para no limitar los usos",
  window: "El fin de la validez tiene que ser después del inicio",
  ticketTypes: "Elegí entradas de este evento",
  event: "Elegí un evento",
  notFound: "No encontramos el cupón.",
  eventNotFound: "No encontramos el evento.",
  deletedIsFinal: "Un cupón eliminado no se puede reactivar.",
  maxBelowUses: (uses: number) => `El cupón ya se usó ${uses} ${uses === 1 ? "vez" : "veces"}: el límite no puede ser menor.`,
  // What buyers read.
  unknown: "Ese cupón no existe para este evento. Revisá cómo lo escribiste.",
  paused: "Ese cupón está pausado por ahora.",
  notStarted: (when: string) => `Ese cupón se puede usar desde las ${when}.`,
  ended: "Ese cupón ya venció.",
  notApplicable: "El cupón no aplica a las entradas que elegiste.",
  exhausted: (code: string) => `Se agotaron los usos del cupón «${code}». Podés comprar sin el cupón.`,
} as const;

/** Form fields arrive as "" when left empty: that means "not given". */
const blankToNull = (v: unknown) => (v === "" || (typeof v === "string" && !v.trim()) ? null : v);

const codeSchema = z
  .string({ error: COUPON_MESSAGES.code })
  .trim()
  .superRefine((v, issue) => {
    if (/\s/.test(v)) issue.addIssue({ code: "custom", message: COUPON_MESSAGES.codeSpaces });
    else if (!COUPON_CODE_PATTERN.test(v)) issue.addIssue({ code: "custom", message: COUPON_MESSAGES.code });
  });

const intIn = (min: number, max: number, message: string) =>
  z.union([z.string(), z.number()]).transform((v, issue) => {
    const n = typeof v === "number" ? v : /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      issue.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return n;
  });

const kindSchema = z.preprocess((v) => (typeof v === "string" ? v.toLowerCase() : v), z.enum(["percent", "fixed"], { error: COUPON_MESSAGES.kind }));

/** The coupon's own fields, as forms and GraphQL send them. */
export const couponFields = z.object({
  code: codeSchema,
  kind: kindSchema,
  percent: z.preprocess(blankToNull, intIn(1, 100, COUPON_MESSAGES.percent).nullish()),
  /** Centavos as a number (GraphQL), or pesos as typed ("1.500,50") in forms. */
  amount: z.preprocess(blankToNull, moneySchema.nullish()),
  ticketTypeIds: z.array(z.string().uuid("Identificador inválido")).max(200).default([]),
  maxUses: z.preprocess(blankToNull, intIn(1, 1_000_000, COUPON_MESSAGES.maxUses).nullish()),
  validFrom: z.preprocess(blankToNull, dateTimeSchema.nullish()),
  validUntil: z.preprocess(blankToNull, dateTimeSchema.nullish()),
});

export type CouponFields = z.output<typeof couponFields>;

/** What the schema alone cannot say: percent or amount by kind, and the window's order. */
export function couponFieldProblems(data: Pick<CouponFields, "kind" | "percent" | "amount" | "validFrom" | "validUntil">): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (data.kind === "percent") {
    if (data.percent == null) errors.percent = [COUPON_MESSAGES.percent];
  } else if (data.amount == null || data.amount <= 0) errors.amount = [COUPON_MESSAGES.amount];
  if (data.validFrom && data.validUntil && data.validUntil <= data.validFrom) errors.validUntil = [COUPON_MESSAGES.window];
  return errors;
}
