import { gzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { assetHostFor, proxyIngest, upstreamUrl } from "./ingest.server";

const CONFIG = { POSTHOG_KEY: "phc_test", POSTHOG_HOST: "https://us.i.posthog.com" };

function fakeFetch(body = "ok", init: ResponseInit = { status: 200, headers: { "content-type": "application/json" } }) {
  return vi.fn(async (..._args: unknown[]) => new Response(body, init));
}

describe("upstream URL", () => {
  it("sends API calls to POSTHOG_HOST and the library to its asset host", () => {
    expect(upstreamUrl(CONFIG.POSTHOG_HOST, "e/", "?ip=1&ver=1.2")!.toString()).toBe("https://us.i.posthog.com/e/?ip=1&ver=1.2");
    expect(upstreamUrl(CONFIG.POSTHOG_HOST, "static/array.js", "")!.toString()).toBe("https://us-assets.i.posthog.com/static/array.js");
    expect(assetHostFor("https://eu.i.posthog.com")).toBe("https://eu-assets.i.posthog.com");
    expect(assetHostFor("https://posthog.example.com")).toBe("https://posthog.example.com");
  });

  it("never leaves the configured host", () => {
    for (const splat of ["/evil.com/x", "//evil.com/x", "https://evil.com/x", "..%2f..%2f", "@evil.com"]) {
      const url = upstreamUrl(CONFIG.POSTHOG_HOST, splat, "");
      if (url) expect(url.origin).toBe("https://us.i.posthog.com");
    }
    expect(upstreamUrl(CONFIG.POSTHOG_HOST, "a/../../b", "")).toBeNull();
  });
});

describe("proxyIngest", () => {
  it("answers 404 and calls nothing when POSTHOG_KEY is absent", async () => {
    const fetchImpl = fakeFetch();
    const response = await proxyIngest(new Request("http://localhost/ingest/e/"), "e/", { POSTHOG_KEY: null, POSTHOG_HOST: CONFIG.POSTHOG_HOST }, { fetchImpl });
    expect(response.status).toBe(404);
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it("forwards a POST with its events and query, without cookies, adding the client IP", async () => {
    const fetchImpl = fakeFetch('{"status":1}');
    const batch = [{ event: "$pageview", properties: { $current_url: "https://tribuna.ar/eventos/noche", token: "phc_test" } }];
    const request = new Request("http://localhost/ingest/e/?compression=gzip-js&ver=1.200.0", {
      method: "POST",
      headers: { "content-type": "text/plain", cookie: "at=secret; rt=secret2", "user-agent": "Prueba/1.0" },
      body: gzipSync(JSON.stringify(batch)),
    });
    const response = await proxyIngest(request, "e/", CONFIG, { fetchImpl, clientIp: "203.0.113.9" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"status":1}');
    const [target, init] = fetchImpl.mock.calls[0] as [URL, RequestInit];
    // Decoded and sent on as plain JSON: the compression flag goes with the gzip.
    expect(target.toString()).toBe("https://us.i.posthog.com/e/?ver=1.200.0");
    expect(init.method).toBe("POST");
    expect(JSON.parse(Buffer.from(init.body as ArrayBuffer).toString())).toEqual(batch);
    const headers = init.headers as Headers;
    expect(headers.get("content-type")).toBe("application/json");
    expect(headers.get("cookie")).toBeNull();
    expect(headers.get("user-agent")).toBe("Prueba/1.0");
    expect(headers.get("x-forwarded-for")).toBe("203.0.113.9");
  });

  it("never forwards a URL with a token: page views, referrers and clicked links lose their query but utm_*, in every body encoding", async () => {
    const secret = "Zq9x-TOKEN-de-la-compra";
    const event = {
      event: "$autocapture",
      properties: {
        $current_url: `https://tribuna.ar/tickets/0b7e3c1e?t=${secret}&utm_source=mail`,
        $referrer: `https://tribuna.ar/checkout/status/approved?billingId=0b7e3c1e&t=${secret}`,
        $elements_chain: `a:attr__href="/tickets/0b7e3c1e/pdf?t=${secret}"href="/tickets/0b7e3c1e/pdf?t=${secret}"nth-child="1"`,
        $set_once: { $initial_current_url: `https://tribuna.ar/cuenta/enlace?token=${secret}` },
        $pathname: "/tickets/0b7e3c1e",
        title: "¿Vas? Tus entradas",
      },
    };
    const json = JSON.stringify({ batch: [event] });
    const bodies: [string, RequestInit["body"], string][] = [
      ["?compression=gzip-js", gzipSync(json), "text/plain"],
      ["?compression=base64", `data=${encodeURIComponent(Buffer.from(json).toString("base64"))}`, "application/x-www-form-urlencoded"],
      ["", json, "application/json"],
    ];
    for (const [query, body, contentType] of bodies) {
      const fetchImpl = fakeFetch();
      const request = new Request(`http://localhost/ingest/e/${query}`, {
        method: "POST",
        headers: { "content-type": contentType, referer: `https://tribuna.ar/tickets/0b7e3c1e?t=${secret}` },
        body,
      });
      expect((await proxyIngest(request, "e/", CONFIG, { fetchImpl })).status, query).toBe(200);
      const [target, init] = fetchImpl.mock.calls[0] as [URL, RequestInit];
      const sent = Buffer.from(init.body as ArrayBuffer).toString();
      expect(sent, query).not.toContain(secret);
      expect(target.toString()).not.toContain(secret);
      expect((init.headers as Headers).get("referer")).toBe("https://tribuna.ar/tickets/0b7e3c1e");
      const forwarded = JSON.parse(sent) as { batch: [typeof event] };
      expect(forwarded.batch[0].properties).toEqual({
        $current_url: "https://tribuna.ar/tickets/0b7e3c1e?utm_source=mail",
        $referrer: "https://tribuna.ar/checkout/status/approved",
        $elements_chain: 'a:attr__href="/tickets/0b7e3c1e/pdf"href="/tickets/0b7e3c1e/pdf"nth-child="1"',
        $set_once: { $initial_current_url: "https://tribuna.ar/cuenta/enlace" },
        $pathname: "/tickets/0b7e3c1e",
        title: "¿Vas? Tus entradas",
      });
    }
    // A body it cannot read is not sent on (it could carry anything).
    const fetchImpl = fakeFetch();
    const unreadable = await proxyIngest(new Request("http://localhost/ingest/e/?compression=gzip-js", { method: "POST", body: `$current_url=/tickets/1?t=${secret}` }), "e/", CONFIG, { fetchImpl });
    expect(unreadable.status).toBe(400);
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it("passes the upstream status and content type back, not its cookies or encoding", async () => {
    const fetchImpl = fakeFetch("console.log(1)", {
      status: 200,
      headers: { "content-type": "application/javascript", "set-cookie": "ph=1", "content-encoding": "br", "cache-control": "public, max-age=3600" },
    });
    const response = await proxyIngest(new Request("http://localhost/ingest/static/array.js"), "static/array.js", CONFIG, { fetchImpl });
    expect(response.headers.get("content-type")).toBe("application/javascript");
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.get("content-encoding")).toBeNull();
  });

  it("answers 502 when PostHog is unreachable", async () => {
    const fetchImpl = vi.fn(async () => {
      throw new TypeError("fetch failed");
    });
    const response = await proxyIngest(new Request("http://localhost/ingest/flags/"), "flags/", CONFIG, { fetchImpl });
    expect(response.status).toBe(502);
  });
});
