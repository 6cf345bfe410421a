import { z } from "zod";
import { describe, expect, it } from "vitest";
import { coordinatesWarning, venueCoordinateFields, venueCoordinatesRefinement } from "./venue-coordinates";

const schema = z.object(venueCoordinateFields).superRefine(venueCoordinatesRefinement);
const problems = (input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? null : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("venue coordinates", () => {
  it("take decimal commas or points, both or neither, within the globe", () => {
    expect(schema.parse({ venueLatitude: "-34,6037", venueLongitude: "-58.3816" })).toEqual({ venueLatitude: -34.6037, venueLongitude: -58.3816 });
    expect(schema.parse({ venueLatitude: "", venueLongitude: "" })).toEqual({});
    expect(problems({ venueLatitude: "-34,6" })).toEqual({ venueLongitude: expect.stringContaining("Completá la latitud y la longitud") });
    expect(problems({ venueLatitude: "-91", venueLongitude: "0" })).toEqual({ venueLatitude: expect.stringContaining("-90 a 90") });
    expect(problems({ venueLatitude: "0", venueLongitude: "181" })).toEqual({ venueLongitude: expect.stringContaining("-180 a 180") });
    expect(problems({ venueLatitude: "34°S", venueLongitude: "58°O" })).not.toBeNull();
  });

  it("warn, without refusing, about a point outside Argentina (often swapped or unsigned)", () => {
    expect(coordinatesWarning(-34.6037, -58.3816)).toBeNull();
    expect(coordinatesWarning(-54.8019, -68.303)).toBeNull();
    expect(coordinatesWarning(-58.3816, -34.6037)).toMatch(/fuera de la Argentina/);
    expect(coordinatesWarning(34.6037, 58.3816)).toMatch(/fuera de la Argentina/);
    expect(coordinatesWarning(null, null)).toBeNull();
  });
});
