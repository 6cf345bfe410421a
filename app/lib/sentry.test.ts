import { describe, expect, it, vi } from "vitest";
import {
  beforeSendTransaction,
  envelopeEndpoint,
  isNotFoundTransaction,
  NOT_FOUND_TRANSACTION,
  parseDsn,
  SENTRY_REPLAY_OPTIONS,
  SENTRY_SAMPLING,
  transactionNameFor,
} from "./sentry";
import { startSentry } from "./sentry-start";
import { forwardEnvelope, MAX_ENVELOPE_BYTES } from "./sentry.server";

const DSN = "https://abc123@o42.ingest.us.sentry.io/4501";

describe("sampling (spec: monitoring)", () => {
  it("traces everything, replays 10 % of sessions and every error, masked", () => {
    expect(SENTRY_SAMPLING).toEqual({ tracesSampleRate: 1, replaysSessionSampleRate: 0.1, replaysOnErrorSampleRate: 1 });
    expect(SENTRY_REPLAY_OPTIONS).toEqual({ maskAllText: true, blockAllMedia: true });
  });
});

describe("no transactions for the 404 route", () => {
  it("drops client transactions named after the not-found routes", () => {
    for (const name of ["routes/$", "routes/404", NOT_FOUND_TRANSACTION]) {
      expect(beforeSendTransaction({ transaction: name })).toBeNull();
    }
  });

  it("drops server transactions that answered 404", () => {
    expect(isNotFoundTransaction({ transaction: "GET /x", contexts: { trace: { data: { "http.response.status_code": 404 } } } })).toBe(true);
    expect(isNotFoundTransaction({ transaction: "GET /404" })).toBe(true);
  });

  it("keeps every other transaction", () => {
    const event = { transaction: "routes/eventos.$slug", contexts: { trace: { data: { "http.response.status_code": 200 } } } };
    expect(beforeSendTransaction(event)).toBe(event);
    expect(beforeSendTransaction({ transaction: "routes/ayuda" })).not.toBeNull();
  });

  it("names a page that rendered the not-found content as the 404 route", () => {
    expect(transactionNameFor({ routeId: "routes/eventos.$slug", pathname: "/eventos/nada", notFound: true })).toBe(NOT_FOUND_TRANSACTION);
    expect(transactionNameFor({ routeId: "routes/eventos.$slug", pathname: "/eventos/rock", notFound: false })).toBe("routes/eventos.$slug");
  });
});

describe("DSN", () => {
  it("parses host, project, key and an optional path prefix", () => {
    expect(parseDsn(DSN)).toEqual({
      origin: "https://o42.ingest.us.sentry.io",
      host: "o42.ingest.us.sentry.io",
      pathPrefix: "",
      projectId: "4501",
      publicKey: "abc123",
    });
    expect(envelopeEndpoint(parseDsn(DSN)!)).toBe("https://o42.ingest.us.sentry.io/api/4501/envelope/");
    expect(envelopeEndpoint(parseDsn("https://k@sentry.example.com/sub/7")!)).toBe("https://sentry.example.com/sub/api/7/envelope/");
  });

  it("rejects anything that is not a DSN", () => {
    for (const value of [null, "", "nope", "https://o42.ingest.sentry.io/1", "https://k@host/not-a-number", "ftp://k@host/1"]) {
      expect(parseDsn(value)).toBeNull();
    }
  });
});

describe("client start", () => {
  it("does not load the SDK without a DSN", () => {
    expect(startSentry(undefined)).toBeNull();
    expect(startSentry({ SENTRY_DSN: null })).toBeNull();
    expect(startSentry({ SENTRY_DSN: "" })).toBeNull();
  });
});

describe("tunnel (/monitoring)", () => {
  function envelope(dsn: string, extra = '{"type":"event"}\n{"message":"hola"}') {
    return new Request("http://localhost/monitoring", {
      method: "POST",
      body: `${JSON.stringify({ event_id: "9ec79c33ec9942ab8353589fcb2e04dc", dsn, sent_at: new Date().toISOString() })}\n${extra}`,
    });
  }

  it("forwards an envelope for our DSN to the DSN's host only, body untouched", async () => {
    const fetchImpl = vi.fn(async () => new Response(null, { status: 200 }));
    const request = envelope(DSN);
    const sent = await request.clone().arrayBuffer();
    const response = await forwardEnvelope(request, DSN, fetchImpl as unknown as typeof fetch);
    expect(response.status).toBe(200);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("https://o42.ingest.us.sentry.io/api/4501/envelope/");
    expect(init.method).toBe("POST");
    expect(Buffer.from(init.body as Uint8Array).equals(Buffer.from(sent))).toBe(true);
  });

  it("refuses envelopes for another project, key or host, without calling out", async () => {
    const fetchImpl = vi.fn(async () => new Response(null, { status: 200 }));
    for (const other of [
      "https://abc123@o42.ingest.us.sentry.io/9999",
      "https://otherkey@o42.ingest.us.sentry.io/4501",
      "https://abc123@evil.example.com/4501",
      "https://abc123@o42.ingest.us.sentry.io.evil.com/4501",
    ]) {
      const response = await forwardEnvelope(envelope(other), DSN, fetchImpl as unknown as typeof fetch);
      expect(response.status).toBe(400);
    }
    const garbage = new Request("http://localhost/monitoring", { method: "POST", body: "not json\n{}" });
    expect((await forwardEnvelope(garbage, DSN, fetchImpl as unknown as typeof fetch)).status).toBe(400);
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it("is 404 when Sentry is not configured, and refuses oversized bodies", async () => {
    const fetchImpl = vi.fn();
    expect((await forwardEnvelope(envelope(DSN), null, fetchImpl as unknown as typeof fetch)).status).toBe(404);
    const big = new Request("http://localhost/monitoring", {
      method: "POST",
      body: `${JSON.stringify({ dsn: DSN })}\n${"x".repeat(MAX_ENVELOPE_BYTES + 1)}`,
    });
    expect((await forwardEnvelope(big, DSN, fetchImpl as unknown as typeof fetch)).status).toBe(413);
    expect(fetchImpl).not.toHaveBeenCalled();
  });
});
