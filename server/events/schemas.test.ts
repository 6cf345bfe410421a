import { describe, expect, it } from "vitest";
import { DATE_RANGE_MESSAGE } from "#common/dates";
import { isDomainError } from "#server/errors";
import { createEvent } from "./events";
import { dateTimeSchema } from "./schemas";
import { createProducer } from "#tests/support/factories";

describe("date fields keep to the spec's picker range (1900-01-01 to 2099-12-31, Buenos Aires)", () => {
  it("accepts the range's first and last minutes and refuses one minute outside it, from forms and from integrators", () => {
    expect(dateTimeSchema.safeParse("1900-01-01T00:00").success).toBe(true);
    expect(dateTimeSchema.safeParse("2099-12-31T23:59").success).toBe(true);
    // 23:59 in Buenos Aires is already the next day in UTC: still inside.
    expect(dateTimeSchema.safeParse("2100-01-01T02:59:00.000Z").success).toBe(true);
    for (const outside of ["1899-12-31T23:59", "2100-01-01T00:00", "2100-01-01T03:00:00.000Z", "0001-01-01T00:00:00Z", "+275760-09-13T00:00:00Z"]) {
      const result = dateTimeSchema.safeParse(outside);
      expect(result.success, outside).toBe(false);
      expect(result.error?.issues[0].message, outside).toBe(DATE_RANGE_MESSAGE);
    }
    expect(dateTimeSchema.safeParse(new Date("2150-06-01T00:00:00Z")).error?.issues[0].message).toBe(DATE_RANGE_MESSAGE);
  });

  it("takes what a person types in the date-time control (dd/mm/aaaa hh:mm, Buenos Aires) as well as ISO, with the same range and messages", () => {
    expect(dateTimeSchema.parse("20/12/2030 21:30").toISOString()).toBe("2030-12-21T00:30:00.000Z");
    expect(dateTimeSchema.parse("201220302130").toISOString()).toBe("2030-12-21T00:30:00.000Z");
    expect(dateTimeSchema.safeParse("01/01/1900 00:00").success).toBe(true);
    expect(dateTimeSchema.safeParse("31/12/2099 23:59").success).toBe(true);
    expect(dateTimeSchema.safeParse("01/01/2100 00:00").error?.issues[0].message).toBe(DATE_RANGE_MESSAGE);
    for (const wrong of ["31/02/2030 21:30", "20/12/2030", "12/31/2030 21:30", "20/12/2030 24:00"]) {
      expect(dateTimeSchema.safeParse(wrong).error?.issues[0].message, wrong).toBe("Ingresá una fecha y hora válidas");
    }
  });

  it("an event with a date in 2100 is refused next to that date's field and nothing is created", async () => {
    const { ctx, organization } = await createProducer();
    const attempt = createEvent(ctx, {
      organizationId: organization.id,
      name: "Fiesta del próximo siglo",
      venueName: "Club",
      venueAddress: "Calle 1",
      city: "La Plata",
      province: "AR-B",
      dates: [{ startsAt: "2100-01-01T21:00", endsAt: "2100-01-02T03:00" }],
    });
    const error = await attempt.catch((e: unknown) => e);
    expect(isDomainError(error)).toBe(true);
    expect((error as { fieldErrors: Record<string, string[]> }).fieldErrors["dates.0.startsAt"]).toEqual([DATE_RANGE_MESSAGE]);
  });
});
