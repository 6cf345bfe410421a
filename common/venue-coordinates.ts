import { z } from "zod";

/**
 * A venue's place on the map (latitude and longitude in decimal degrees), optional, both or neither. Any
 * valid point is accepted (a festival in Montevideo is an event too); one outside Argentina's rough box
 * only earns a warning, since swapped or unsigned coordinates are the usual mistake.
 */

export const COORDINATE_MESSAGES = {
  latitude: "La latitud va de -90 a 90, en grados con decimales (por ejemplo, -34,6037).",
  longitude: "La longitud va de -180 a 180, en grados con decimales (por ejemplo, -58,3816).",
  both: "Completá la latitud y la longitud, o dejá las dos vacías.",
  outsideArgentina: "Estas coordenadas quedan fuera de la Argentina. Si el lugar está acá, revisá que no estén invertidas y que las dos lleven el signo menos.",
} as const;

/** Argentina's mainland and Tierra del Fuego, roughly: enough to catch swapped or unsigned coordinates. */
const ARGENTINA = { minLat: -55.2, maxLat: -21.7, minLng: -73.7, maxLng: -53.5 } as const;

/** "-34,6037" or "-34.6037" (or a number) → -34.6037; empty → undefined; anything else → NaN (refused by the range). */
function toNumber(value: unknown): unknown {
  if (value === "" || value === null || value === undefined) return undefined;
  if (typeof value === "number") return value;
  if (typeof value !== "string") return Number.NaN;
  const text = value.trim().replace(",", ".");
  return /^-?\d{1,3}(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
}

export const latitudeSchema = z.preprocess(toNumber, z.number({ error: COORDINATE_MESSAGES.latitude }).min(-90, COORDINATE_MESSAGES.latitude).max(90, COORDINATE_MESSAGES.latitude).optional());
export const longitudeSchema = z.preprocess(
  toNumber,
  z.number({ error: COORDINATE_MESSAGES.longitude }).min(-180, COORDINATE_MESSAGES.longitude).max(180, COORDINATE_MESSAGES.longitude).optional(),
);

/** The two fields of an event's venue; the pair is checked by `venueCoordinatesRefinement`. */
export const venueCoordinateFields = { venueLatitude: latitudeSchema, venueLongitude: longitudeSchema };

/** Both or neither: the message goes to the one that is missing. */
export function venueCoordinatesRefinement(v: { venueLatitude?: number; venueLongitude?: number }, issue: z.RefinementCtx) {
  if (v.venueLatitude === undefined && v.venueLongitude !== undefined) issue.addIssue({ code: "custom", path: ["venueLatitude"], message: COORDINATE_MESSAGES.both });
  if (v.venueLongitude === undefined && v.venueLatitude !== undefined) issue.addIssue({ code: "custom", path: ["venueLongitude"], message: COORDINATE_MESSAGES.both });
}

/** A warning, not an error: the point is valid but falls outside Argentina's box. */
export function coordinatesWarning(latitude: number | null | undefined, longitude: number | null | undefined): string | null {
  if (latitude === null || latitude === undefined || longitude === null || longitude === undefined) return null;
  const inside = latitude >= ARGENTINA.minLat && latitude <= ARGENTINA.maxLat && longitude >= ARGENTINA.minLng && longitude <= ARGENTINA.maxLng;
  return inside ? null : COORDINATE_MESSAGES.outsideArgentina;
}
