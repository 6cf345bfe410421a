import { describe, expect, it } from "vitest";
import type { GoogleWalletConfig } from "./config";
import { eventTicketClass, eventTicketObject, googleClassId } from "./google";
import type { WalletPassData } from "./pass-data";

const config: GoogleWalletConfig = { issuerId: "3388000000022212345", serviceAccountEmail: "wallet@example.iam.gserviceaccount.com", privateKey: "unused" };

const data: WalletPassData = {
  serial: "6f1c2b9e-0c1d-4c7a-9a51-2f0b7d3e4a10-0123456789abcdef",
  ticket: { id: "6f1c2b9e-0c1d-4c7a-9a51-2f0b7d3e4a10", code: "ABCD1234EFGH", ticketTypeName: "Platea", holderName: "Sofía Peña", holderDocument: null, seat: null },
  event: { id: "e1", name: "Los Piojos en La Plata", venueName: "Estadio Único", venueAddress: "Av. 32 y 25", city: "La Plata", colors: null, location: null, startsAt: new Date("2026-12-13T00:00:00Z"), endsAt: new Date("2026-12-13T04:00:00Z"), doorsAt: null },
  date: { id: "d1", first: true, startsAt: new Date("2026-12-13T00:00:00Z"), endsAt: new Date("2026-12-13T04:00:00Z"), doorsAt: null },
  orderCode: "TRB-7K3Q",
  voided: false,
  live: null,
};

const es = (value: string) => ({ defaultValue: { language: "es-AR", value } });

describe("Google Wallet's eventTicketObject, reserved seating (docs/seating.md)", () => {
  it("a seated ticket carries seatInfo: section, row and seat as localized strings", () => {
    const object = eventTicketObject(config, { ...data, ticket: { ...data.ticket, seat: { section: "Platea", row: "F", number: "12", label: "Platea · Fila F · Asiento 12" } } });
    expect(object).toMatchObject({ state: "ACTIVE", ticketType: es("Platea"), seatInfo: { section: es("Platea"), row: es("F"), seat: es("12") } });
  });

  it("a general-admission ticket has no seatInfo", () => {
    expect(eventTicketObject(config, data)).not.toHaveProperty("seatInfo");
  });
});

describe("Google Wallet's classes, one per event date (decision 238)", () => {
  it("the event's first date keeps the event's class id; another date's class adds its id, and its object points at it", () => {
    expect(googleClassId(config, "e1", { id: "d1", first: true })).toBe("3388000000022212345.event-e1");
    expect(googleClassId(config, "e1", { id: "d2", first: false })).toBe("3388000000022212345.event-e1_d2");
    const second = { id: "d2", first: false, startsAt: new Date("2026-12-14T01:00:00Z"), endsAt: new Date("2026-12-14T05:00:00Z"), doorsAt: new Date("2026-12-14T00:00:00Z") };
    expect(eventTicketClass(config, data.event, second)).toMatchObject({
      id: "3388000000022212345.event-e1_d2",
      dateTime: { start: "2026-12-14T01:00:00.000Z", end: "2026-12-14T05:00:00.000Z", doorsOpen: "2026-12-14T00:00:00.000Z" },
    });
    expect(eventTicketObject(config, { ...data, date: second }).classId).toBe("3388000000022212345.event-e1_d2");
    expect(eventTicketObject(config, data).classId).toBe("3388000000022212345.event-e1");
  });
});
