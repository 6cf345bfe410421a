import { describe, expect, it } from "vitest";
import { drawnText } from "#tests/support/pdf-text";
import { ticketsPdf } from "./pdf";
import type { TicketEventView, TicketView } from "./tickets";

const event: TicketEventView = {
  id: "e",
  slug: "recital",
  name: "Recital",
  imageUrl: null,
  venue: { name: "Estadio", address: "Av. Siempreviva 742", city: "Córdoba", province: "AR-X" },
  startsAt: new Date("2026-12-12T00:00:00Z"),
  endsAt: new Date("2026-12-12T04:00:00Z"),
  doorsAt: null,
};

function ticket(holderDocument: string | null, seat: TicketView["seat"] = null): TicketView {
  return { id: "t", code: "abcdefghijklmnopqrstuv", qrPayload: "TRB1.abcdefghijklmnopqrstuv.sig", status: "redeemable", statusLabel: "Válida", holderName: "Ana Gómez", holderEmail: "ana@example.com", holderDocument, seat, ticketTypeId: "tt", ticketTypeName: "Campo", kind: "ticket", transferredTo: null };
}


describe("the ticket PDF of a named ticket (decision 202)", () => {
  it("prints the holder's document under the name, and says the door asks for it", async () => {
    const text = await drawnText(await ticketsPdf({ orderCode: "TRB-ABC234", event, tickets: [ticket("DNI 30.123.456")] }));
    expect(text).toContain("Ana Gómez");
    expect(text).toContain("Documento");
    expect(text).toContain("DNI 30.123.456");
    expect(text).toContain("Entrada nominativa");
  });

  it("prints no document line for a ticket that is not named", async () => {
    const text = await drawnText(await ticketsPdf({ orderCode: "TRB-ABC234", event, tickets: [ticket(null)] }));
    expect(text).toContain("Ana Gómez");
    expect(text).not.toContain("Documento");
  });
});

describe("the ticket PDF of a seated ticket (docs/seating.md)", () => {
  it("prints where the holder sits; a general-admission ticket has no seat line", async () => {
    const seat = { section: "Platea", row: "F", number: "12", label: "Platea · Fila F · Asiento 12" };
    const text = await drawnText(await ticketsPdf({ orderCode: "TRB-ABC234", event, tickets: [ticket(null, seat)] }));
    expect(text).toContain("Ubicación");
    expect(text).toContain("Platea · Fila F · Asiento 12");
    const general = await drawnText(await ticketsPdf({ orderCode: "TRB-ABC234", event, tickets: [ticket(null)] }));
    expect(general).not.toContain("Ubicación");
    expect(general).not.toContain("Asiento");
  });
});
