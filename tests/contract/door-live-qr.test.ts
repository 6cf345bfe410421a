import { describe, expect, it } from "vitest";
import { LIVE_QR_PERIOD_MS, hexToBytes, liveCodeAt } from "#common/live-qr";
import { liveTicketCredentials } from "#server/door/live-qr";
import { errorCode, gql } from "#tests/support/graphql";
import { tonightWithPaidTickets } from "#tests/support/tonight";

const SET = `mutation ($input: SetEventLiveQrInput!) { setEventLiveQr(input: $input) { enabled chosen defaultEnabled staticCodeRevealHours } }`;
const EVENT = `query ($slug: String!) { event(slug: $slug) { liveQr { enabled chosen staticCodeRevealHours } } }`;
const REDEEM = `mutation ($slug: String!, $code: String!) { redeemProduct(input: { eventSlug: $slug, code: $code }) { outcome title detail } }`;

describe("the live QR over GraphQL", () => {
  it("setEventLiveQr turns it on, Event.liveQr says so, and redeemProduct admits a live code and refuses an old one", async () => {
    const { db, event, tickets, tokens } = await tonightWithPaidTickets({ qty: 2 });
    expect((await gql<{ event: { liveQr: { enabled: boolean } } }>(EVENT, { variables: { slug: event.slug } })).body.data!.event.liveQr).toEqual({ enabled: false, chosen: false, staticCodeRevealHours: 24 });

    const bad = await gql(SET, { tokens, variables: { input: { eventId: event.id, enabled: true, staticCodeRevealHours: 169 } } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    const set = await gql<{ setEventLiveQr: unknown }>(SET, { tokens, variables: { input: { eventId: event.id, enabled: true, staticCodeRevealHours: 12 } } });
    expect(set.body.data!.setEventLiveQr).toEqual({ enabled: true, chosen: true, defaultEnabled: false, staticCodeRevealHours: 12 });
    expect((await gql<{ event: { liveQr: unknown } }>(EVENT, { variables: { slug: event.slug } })).body.data!.event.liveQr).toEqual({ enabled: true, chosen: true, staticCodeRevealHours: 12 });

    const codeAt = async (ticketId: string, at: number) => {
      const { ticketRef, secretHex } = await liveTicketCredentials(db, event.id, ticketId);
      return liveCodeAt(hexToBytes(secretHex), ticketRef, at);
    };
    const fresh = await gql<{ redeemProduct: { outcome: string } }>(REDEEM, { tokens, variables: { slug: event.slug, code: await codeAt(tickets[0].id, Date.now()) } });
    expect(fresh.body.data!.redeemProduct).toMatchObject({ outcome: "admitted", title: "Adelante" });
    const old = await gql<{ redeemProduct: { outcome: string } }>(REDEEM, { tokens, variables: { slug: event.slug, code: await codeAt(tickets[1].id, Date.now() - 4 * LIVE_QR_PERIOD_MS) } });
    expect(old.body.data!.redeemProduct).toEqual({ outcome: "expired_code", title: "Código vencido", detail: "Captura de pantalla o código vencido: pedile que abra la entrada" });
  });
});
