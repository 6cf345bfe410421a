import { describe, expect, it } from "vitest";
import { errorCode, gql } from "#tests/support/graphql";
import { createSeatedEvent } from "#tests/support/seating";

/** previewOrder of a seated selection over GraphQL (docs/api.md#previeworder, docs/seating.md): priced as createOrder would. */

const PREVIEW = `query($input: PreviewOrderInput!) { previewOrder(input: $input) { lines { ticketId qty unitPrice subtotal } subtotal total } }`;

describe("previewOrder with seats", () => {
  it("prices chosen seats and a best-available request as their ticket type; an unknown seat is BAD_USER_INPUT", async () => {
    const made = await createSeatedEvent();
    const bySeats = await gql<{ previewOrder: { lines: { ticketId: string; qty: number; subtotal: number }[]; subtotal: number } }>(PREVIEW, {
      variables: { input: { eventSlug: made.event.slug, items: [], seats: ["F12", "F13"] } },
    });
    expect(bySeats.body.errors).toBeUndefined();
    expect(bySeats.body.data!.previewOrder).toMatchObject({ lines: [{ ticketId: made.tickets.Platea.id, qty: 2, subtotal: 2_000_000 }], subtotal: 2_000_000 });

    const byBest = await gql<{ previewOrder: { lines: { qty: number }[] } }>(PREVIEW, {
      variables: { input: { eventSlug: made.event.slug, items: [], bestAvailable: { ticketTypeId: made.tickets.Platea.id, quantity: 3 } } },
    });
    expect(byBest.body.errors).toBeUndefined();
    expect(byBest.body.data!.previewOrder.lines).toMatchObject([{ qty: 3 }]);

    const unknown = await gql(PREVIEW, { variables: { input: { eventSlug: made.event.slug, items: [], seats: ["Z1"] } } });
    expect(errorCode(unknown)).toBe("BAD_USER_INPUT");
  });
});
