import { describe, expect, it } from "vitest";
import type { IncomingMessage, ServerResponse } from "node:http";
import { PageCache, writeCopy } from "./page-cache";

const URL_BASE = "http://localhost:3000";
const page = (body: string, headers: Record<string, string> = { "cache-control": "public, max-age=30" }) => new Response(body, { status: 200, headers: { "content-type": "text/html", ...headers } });
const request = (path: string, cookie?: string, method = "GET") => new Request(`${URL_BASE}${path}`, { method, headers: cookie ? { cookie } : {} });

/** A renderer that counts its calls and answers after a tick, like a page render. */
function renderer(make: (request: Request, n: number) => Response = (_r, n) => page(`render ${n}`)) {
  let calls = 0;
  const render = async (req: Request) => {
    calls++;
    const n = calls;
    await new Promise((resolve) => setTimeout(resolve, 5));
    return make(req, n);
  };
  return { render, calls: () => calls };
}

describe("PageCache", () => {
  it("renders once for many concurrent anonymous misses and serves the copy until the TTL ends", async () => {
    let now = 1_000;
    const cache = new PageCache({ ttlMs: 5_000, now: () => now });
    const { render, calls } = renderer();
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.handle(request("/eventos/fiesta"), render)));
    expect(calls()).toBe(1);
    expect(new Set(await Promise.all(answers.map((a) => a.text())))).toEqual(new Set(["render 1"]));
    now += 4_999;
    expect(await (await cache.handle(request("/eventos/fiesta"), render)).text()).toBe("render 1");
    now += 2;
    expect(await (await cache.handle(request("/eventos/fiesta"), render)).text()).toBe("render 2");
  });

  it("keys by URL and theme; never serves a copy to a request with a session, a snackbar, a saved cart or an unknown cookie", async () => {
    const cache = new PageCache();
    const { render, calls } = renderer((req, n) => page(`${new URL(req.url).pathname} ${n}`));
    await cache.handle(request("/"), render);
    await cache.handle(request("/", "theme=light"), render);
    await cache.handle(request("/?q=tango"), render);
    expect(calls()).toBe(3);
    await cache.handle(request("/", "ph_abc_posthog=%7B%7D; _ga=GA1"), render); // analytics cookies: the same copy
    expect(calls()).toBe(3);
    for (const cookie of ["at=token", "rt=token", "flash=hola", "incomplete-saved-order--fiesta=%7B%7D", "otra=cosa"]) {
      const answer = await cache.handle(request("/", cookie), render);
      expect(answer.headers.get("x-cache"), cookie).toBeNull();
    }
    expect(calls()).toBe(8);
    await cache.handle(request("/", undefined, "POST"), render);
    expect(calls()).toBe(9);
  });

  it("keeps only what the response allows: public, 200, no Set-Cookie", async () => {
    const cache = new PageCache();
    for (const response of [
      () => page("privada", { "cache-control": "private, no-cache" }),
      () => page("sin cabecera", {}),
      () => page("con cookie", { "cache-control": "public, max-age=30", "set-cookie": "a=b" }),
      () => new Response("no está", { status: 404, headers: { "cache-control": "public" } }),
    ]) {
      const { render, calls } = renderer(response);
      await cache.handle(request("/x"), render);
      await cache.handle(request("/x"), render);
      expect(calls()).toBe(2);
    }
    expect(cache.size).toBe(0);
  });

  it("drops every copy when cleared (an event changed) and stays bounded", async () => {
    const cache = new PageCache({ maxEntries: 3 });
    const { render, calls } = renderer();
    for (const path of ["/a", "/b", "/c", "/d"]) await cache.handle(request(path), render);
    expect(cache.size).toBe(3);
    cache.clear();
    expect(cache.size).toBe(0);
    await cache.handle(request("/a"), render);
    expect(calls()).toBe(5);
  });

  it("stays under its bound in bytes when filled past it with big pages, and still serves the newest copies", async () => {
    const maxBytes = 1_000_000;
    const cache = new PageCache({ maxEntries: 1_000, maxBytes });
    const { render, calls } = renderer((req) => page(`${new URL(req.url).pathname} ${"x".repeat(90_000)}`));
    for (let i = 0; i < 40; i++) {
      await cache.handle(request(`/eventos/e${i}`), render);
      expect(cache.bytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(cache.size).toBeLessThan(12);
    expect(cache.size).toBeGreaterThan(5);
    const newest = await cache.handle(request("/eventos/e39"), render);
    expect(newest.headers.get("x-cache")).toBe("HIT");
    expect(calls()).toBe(40);
    const oldest = await cache.handle(request("/eventos/e0"), render);
    expect(oldest.headers.get("x-cache")).toBe("MISS");
  });

  it("never keeps a page bigger than a tenth of its bytes, and drops expired copies before live ones", async () => {
    let now = 0;
    const cache = new PageCache({ maxBytes: 100_000, ttlMs: 1_000, now: () => now });
    const { render } = renderer((req) => page(new URL(req.url).pathname === "/grande" ? "x".repeat(20_000) : "y".repeat(5_000)));
    await cache.handle(request("/grande"), render);
    expect(cache.size).toBe(0);
    await cache.handle(request("/a"), render);
    now = 2_000;
    await cache.handle(request("/b"), render);
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBeLessThan(6_000);
  });
});

describe("PageCache and the Content-Security-Policy nonce", () => {
  it("serves every copy with a fresh nonce, in the header and in each script tag", async () => {
    const cache = new PageCache();
    const nonce = "QUJDREVGR0hJSktMTU5PUA==";
    const { render, calls } = renderer(() =>
      page(`<script nonce="${nonce}">a()</script><p>${nonce.length}</p><script nonce="${nonce}" type="module"></script>`, {
        "cache-control": "public, max-age=30",
        "content-security-policy": `script-src 'nonce-${nonce}' 'strict-dynamic'; frame-ancestors 'none'`,
      }),
    );
    const first = await cache.handle(request("/eventos/fiesta"), render);
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(await first.text()).toContain(`nonce="${nonce}"`);
    const seen = new Set([nonce]);
    for (let i = 0; i < 3; i++) {
      const copy = await cache.handle(request("/eventos/fiesta"), render);
      expect(copy.headers.get("x-cache")).toBe("HIT");
      const fresh = copy.headers.get("content-security-policy")?.match(/'nonce-([^']+)'/)?.[1] ?? "";
      expect(seen.has(fresh), "a nonce is never reused").toBe(false);
      seen.add(fresh);
      const html = await copy.text();
      expect(html).toBe(`<script nonce="${fresh}">a()</script><p>24</p><script nonce="${fresh}" type="module"></script>`);
    }
    expect(calls()).toBe(1);
  });

  it("answers a fresh copy straight from Node's request, with the same rules: key, cookies, TTL, a nonce of its own, HEAD without a body", async () => {
    let now = 1_000;
    const cache = new PageCache({ ttlMs: 5_000, now: () => now });
    const policy = "script-src 'nonce-RENDERNONCE'";
    const { render } = renderer(() => page('<script nonce="RENDERNONCE">x</script>', { "cache-control": "public, max-age=30", "content-security-policy": policy }));
    const nodeRequest = (url: string, cookie?: string, method = "GET") => ({ url, method, headers: cookie ? { cookie } : {} }) as unknown as IncomingMessage;

    expect(cache.freshCopyFor(nodeRequest("/eventos/fiesta"))).toBeNull(); // nothing kept yet: Express renders and fills
    await cache.handle(request("/eventos/fiesta"), render);
    const copy = cache.freshCopyFor(nodeRequest("/eventos/fiesta", "_ga=GA1"))!;
    expect(copy).not.toBeNull();
    for (const cookie of ["at=token", "flash=hola", "incomplete-saved-order--fiesta=%7B%7D", "theme=light"]) expect(cache.freshCopyFor(nodeRequest("/eventos/fiesta", cookie)), cookie).toBeNull();
    expect(cache.freshCopyFor(nodeRequest("/eventos/fiesta?x=1"))).toBeNull();
    expect(cache.freshCopyFor(nodeRequest("/eventos/fiesta", undefined, "POST"))).toBeNull();

    const written = (method: string) => {
      const out = { status: 0, headers: {} as Record<string, unknown>, body: undefined as Buffer | undefined };
      const res = {
        setHeader: (name: string, value: unknown) => void (out.headers[name.toLowerCase()] = value),
        writeHead: (status: number) => void (out.status = status),
        end: (body?: Buffer) => void (out.body = body),
      } as unknown as ServerResponse;
      writeCopy(copy, method, res);
      return out;
    };
    const first = written("GET");
    const second = written("GET");
    expect(first.status).toBe(200);
    expect(first.headers["x-cache"]).toBe("HIT");
    const nonceOf = (csp: unknown) => String(csp).match(/'nonce-([^']+)'/)![1];
    expect(nonceOf(first.headers["content-security-policy"])).not.toBe("RENDERNONCE");
    expect(nonceOf(first.headers["content-security-policy"])).not.toBe(nonceOf(second.headers["content-security-policy"]));
    expect(first.body!.toString()).toBe(`<script nonce="${nonceOf(first.headers["content-security-policy"])}">x</script>`);
    expect(first.headers["content-length"]).toBe(first.body!.length);
    const head = written("HEAD");
    expect(head.body).toBeUndefined();
    expect(head.headers["content-length"]).toBe(first.body!.length);

    now += 5_001;
    expect(cache.freshCopyFor(nodeRequest("/eventos/fiesta"))).toBeNull();
    await cache.handle(request("/eventos/fiesta"), render);
    cache.clear();
    expect(cache.freshCopyFor(nodeRequest("/eventos/fiesta"))).toBeNull();
  });
});
