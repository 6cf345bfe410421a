// A venue's seat plan: one JSON document per map, reused by every event that
// seats people with it. Seats keep a stable `guid` for life (claims, tickets and
// exports refer to it); positions are drawing units, not metres. Categories are
// the map's price levels: each event maps them to its own ticket types.
import { z } from "zod";

export const SEAT_PLAN_LIMITS = {
  maxSeats: 60_000,
  maxSections: 200,
  maxCategories: 40,
  maxSize: 20_000,
} as const;

const coordinate = z.number().finite().min(-SEAT_PLAN_LIMITS.maxSize).max(SEAT_PLAN_LIMITS.maxSize);

export const seatPlanSeatSchema = z.object({
  guid: z.string().min(1).max(64),
  /** What the ticket and the map print: "12", "12 bis". */
  number: z.string().min(1).max(12),
  x: coordinate,
  y: coordinate,
  category: z.string().min(1).max(60),
  accessible: z.boolean().optional(),
  restrictedView: z.boolean().optional(),
});

export const seatPlanRowSchema = z.object({
  /** "A", "12", "Fila 3": printed as is. */
  label: z.string().min(1).max(20),
  seats: z.array(seatPlanSeatSchema),
});

export const seatPlanStandingSchema = z.object({
  category: z.string().min(1).max(60),
  capacity: z.number().int().positive().max(SEAT_PLAN_LIMITS.maxSeats),
  x: coordinate,
  y: coordinate,
  width: z.number().positive().max(SEAT_PLAN_LIMITS.maxSize),
  height: z.number().positive().max(SEAT_PLAN_LIMITS.maxSize),
});

export const seatPlanSectionSchema = z.object({
  /** Stable like a seat's guid. */
  id: z.string().min(1).max(64),
  /** "Platea", "Pullman", "Palco 3", "Campo". */
  name: z.string().min(1).max(60),
  kind: z.enum(["numbered", "standing"]),
  rows: z.array(seatPlanRowSchema),
  /** Only for `standing`: a drawn area sold by count, not by seat. */
  standing: seatPlanStandingSchema.optional(),
});

/** Decoration that is not sold: the stage, a bar, an aisle's label. */
export const seatPlanShapeSchema = z.object({
  text: z.string().max(60).optional(),
  x: coordinate,
  y: coordinate,
  width: z.number().positive().max(SEAT_PLAN_LIMITS.maxSize),
  height: z.number().positive().max(SEAT_PLAN_LIMITS.maxSize),
  rotation: z.number().finite().optional(),
  color: z.string().max(30).optional(),
});

export const seatPlanCategorySchema = z.object({
  name: z.string().min(1).max(60),
  color: z.string().max(30).optional(),
});

export const seatPlanSchema = z.object({
  name: z.string().min(1).max(120),
  size: z.object({
    width: z.number().positive().max(SEAT_PLAN_LIMITS.maxSize),
    height: z.number().positive().max(SEAT_PLAN_LIMITS.maxSize),
  }),
  categories: z.array(seatPlanCategorySchema).max(SEAT_PLAN_LIMITS.maxCategories),
  sections: z.array(seatPlanSectionSchema).max(SEAT_PLAN_LIMITS.maxSections),
  shapes: z.array(seatPlanShapeSchema).default([]),
  /** Which side of the drawing the stage is on: best available fills rows nearest it first. Default "top" (lowest y). */
  front: z.enum(["top", "bottom", "left", "right"]).optional(),
});

export type SeatPlanSeat = z.infer<typeof seatPlanSeatSchema>;
export type SeatPlanRow = z.infer<typeof seatPlanRowSchema>;
export type SeatPlanSection = z.infer<typeof seatPlanSectionSchema>;
export type SeatPlanShape = z.infer<typeof seatPlanShapeSchema>;
export type SeatPlanCategory = z.infer<typeof seatPlanCategorySchema>;
export type SeatPlan = z.infer<typeof seatPlanSchema>;

/** Every seat of the plan with where it sits, in plan order. */
export function listPlanSeats(plan: SeatPlan): Array<SeatPlanSeat & { sectionId: string; section: string; row: string; rowIndex: number; seatIndex: number }> {
  const seats: Array<SeatPlanSeat & { sectionId: string; section: string; row: string; rowIndex: number; seatIndex: number }> = [];
  for (const section of plan.sections) {
    section.rows.forEach((row, rowIndex) => {
      row.seats.forEach((seat, seatIndex) => {
        seats.push({ ...seat, sectionId: section.id, section: section.name, row: row.label, rowIndex, seatIndex });
      });
    });
  }
  return seats;
}
