import { describe, expect, it } from "vitest";
import {
  base64urlToBytes,
  bytesToHex,
  hotp,
  LIVE_QR_PERIOD_MS,
  liveCodeAt,
  liveDigitsAt,
  liveRefLookup,
  liveTicketSecret,
  msUntilNextCode,
  parseLiveCode,
  ticketIdOfRef,
  ticketRefOf,
  unwrapLiveSecret,
  verifyLiveCode,
  wrapLiveSecret,
} from "./live-qr";

const ascii = (s: string) => new TextEncoder().encode(s);

// RFC 6238, appendix B: 8 digits, 30-second step. Each row as [Unix seconds, SHA-1 code, SHA-256 code].
const RFC6238: [number, string, string][] = [
  [59, "94287082", "46119246"],
  [1111111109, "07081804", "68084774"],
  [1111111111, "14050471", "67062674"],
  [1234567890, "89005924", "91819424"],
  [2000000000, "69279037", "90698825"],
  [20000000000, "65353130", "77737706"],
];

describe("live QR codes (one implementation for browser, server and door)", () => {
  it("reproduces RFC 6238's test vectors (HOTP of the time step)", async () => {
    for (const [seconds, sha1, sha256] of RFC6238) {
      const step = Math.floor(seconds / 30);
      expect(await hotp(ascii("12345678901234567890"), step)).toBe(sha1);
      expect(await hotp(ascii("12345678901234567890123456789012"), step, 8, "SHA-256")).toBe(sha256);
    }
  });

  it("counts 15-second steps from the epoch: the RFC's step N is our step N, at N × 15 s", async () => {
    const secret = ascii("12345678901234567890");
    for (const [seconds, sha1] of RFC6238) {
      const step = Math.floor(seconds / 30);
      expect(await liveDigitsAt(secret, step * LIVE_QR_PERIOD_MS)).toBe(sha1);
      // Anywhere inside the same step: the same code.
      expect(await liveDigitsAt(secret, step * LIVE_QR_PERIOD_MS + 14_999)).toBe(sha1);
    }
  });

  it("builds TLQ1.<ref>.<8 digits> from the ticket id, and reads it back", async () => {
    const ticketId = "0b8f5a52-3c1e-4c7a-9d3e-52b1f0a9c4d7";
    const ref = ticketRefOf(ticketId)!;
    expect(ref).toHaveLength(22);
    expect(ticketIdOfRef(ref)).toBe(ticketId);
    const secret = await liveTicketSecret(new Uint8Array(32).fill(7), ticketId);
    expect(secret).toHaveLength(32);
    const code = await liveCodeAt(secret, ref, Date.UTC(2026, 11, 12, 23, 0, 7));
    expect(code).toMatch(new RegExp(`^TLQ1\\.${ref}\\.\\d{8}$`));
    expect(parseLiveCode(code)).toEqual({ ticketRef: ref, ticketId, digits: code.slice(-8) });
    expect(parseLiveCode("TRB1.abc.def")).toBeNull();
    expect(parseLiveCode(`TLQ1.${ref}.1234567`)).toBeNull();
    expect(ticketRefOf("no-es-un-id")).toBeNull();
  });

  it("derives a different secret per ticket and per event key", async () => {
    const a = await liveTicketSecret(new Uint8Array(32).fill(1), "0b8f5a52-3c1e-4c7a-9d3e-52b1f0a9c4d7");
    const b = await liveTicketSecret(new Uint8Array(32).fill(1), "1b8f5a52-3c1e-4c7a-9d3e-52b1f0a9c4d7");
    const c = await liveTicketSecret(new Uint8Array(32).fill(2), "0b8f5a52-3c1e-4c7a-9d3e-52b1f0a9c4d7");
    expect(new Set([bytesToHex(a), bytesToHex(b), bytesToHex(c)]).size).toBe(3);
  });

  it("accepts one step of clock drift either side and refuses two", async () => {
    const secret = ascii("12345678901234567890");
    const ref = ticketRefOf("0b8f5a52-3c1e-4c7a-9d3e-52b1f0a9c4d7")!;
    const shownAt = Date.UTC(2026, 11, 12, 23, 0, 0);
    const code = await liveCodeAt(secret, ref, shownAt);
    expect(await verifyLiveCode(secret, code, shownAt)).toEqual({ valid: true, offset: 0 });
    // The judge's clock one step ahead: the code is from its previous step.
    expect(await verifyLiveCode(secret, code, shownAt + LIVE_QR_PERIOD_MS)).toEqual({ valid: true, offset: -1 });
    expect(await verifyLiveCode(secret, code, shownAt - LIVE_QR_PERIOD_MS)).toEqual({ valid: true, offset: 1 });
    expect((await verifyLiveCode(secret, code, shownAt + 2 * LIVE_QR_PERIOD_MS)).valid).toBe(false);
    expect((await verifyLiveCode(secret, code, shownAt - 2 * LIVE_QR_PERIOD_MS)).valid).toBe(false);
    // A screenshot taken a minute ago.
    expect((await verifyLiveCode(secret, code, shownAt + 60_000)).valid).toBe(false);
    // Another ticket's secret never verifies it.
    expect((await verifyLiveCode(ascii("otra-clave-de-otra-entrada"), code, shownAt)).valid).toBe(false);
  });

  it("says how long the shown code has left", () => {
    expect(msUntilNextCode(Date.UTC(2026, 0, 1, 0, 0, 0))).toBe(15_000);
    expect(msUntilNextCode(Date.UTC(2026, 0, 1, 0, 0, 4))).toBe(11_000);
  });

  it("wraps a secret for the manifest so only a ticket's reference unwraps it", async () => {
    const ref = ticketRefOf("0b8f5a52-3c1e-4c7a-9d3e-52b1f0a9c4d7")!;
    const other = ticketRefOf("1b8f5a52-3c1e-4c7a-9d3e-52b1f0a9c4d7")!;
    const secret = await liveTicketSecret(new Uint8Array(32).fill(9), "0b8f5a52-3c1e-4c7a-9d3e-52b1f0a9c4d7");
    const wrapped = await wrapLiveSecret(secret, ref);
    expect(bytesToHex(base64urlToBytes(wrapped))).not.toBe(bytesToHex(secret));
    expect(bytesToHex(await unwrapLiveSecret(wrapped, ref))).toBe(bytesToHex(secret));
    expect(bytesToHex(await unwrapLiveSecret(wrapped, other))).not.toBe(bytesToHex(secret));
    const key = new Uint8Array(32).fill(3);
    expect(await liveRefLookup(key, ref)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await liveRefLookup(key, ref)).not.toBe(await liveRefLookup(key, other));
  });
});
