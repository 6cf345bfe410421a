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

  it("forwards a POST with its body and query, without cookies, adding the client IP", async () => {
    const fetchImpl = fakeFetch('{"status":1}');
    const request = new Request("http://localhost/ingest/e/?compression=gzip-js&ver=1.200.0", {
      method: "POST",
      headers: { "content-type": "text/plain", cookie: "at=secret; rt=secret2", "user-agent": "Prueba/1.0" },
      body: "payload-bytes",
    });
    const response = await proxyIngest(request, "e/", CONFIG, { fetchImpl, clientIp: "203.0.113.9" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"status":1}');
    const [target, init] = fetchImpl.mock.calls[0] as [URL, RequestInit];
    expect(target.toString()).toBe("https://us.i.posthog.com/e/?compression=gzip-js&ver=1.200.0");
    expect(init.method).toBe("POST");
    expect(Buffer.from(init.body as ArrayBuffer).toString()).toBe("payload-bytes");
    const headers = init.headers as Headers;
    expect(headers.get("cookie")).toBeNull();
    expect(headers.get("user-agent")).toBe("Prueba/1.0");
    expect(headers.get("x-forwarded-for")).toBe("203.0.113.9");
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
