import http from "node:http";
import type { AddressInfo } from "node:net";
import { http as mock, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { postWebhook, verifyWebhookSignature } from "#server/webhooks/deliveries";
import { isPublicAddress, PublicRequestError, requestPublicUrl, setOutgoingTestPolicy, type ResolvedAddress } from "./safe-destination";

/** Counts every TCP connection on a dual-stack port: the refused requests below must never reach it. */
let connections = 0;
let listener: http.Server;
let port = 0;

/** The public receiver: MSW answers for it, so the request never leaves the machine. */
const delivered: Request[] = [];
const msw = setupServer(
  mock.post("https://hooks.integrador.example/tribuna", async ({ request }) => {
    delivered.push(request.clone());
    return new HttpResponse("ok", { status: 200 });
  }),
);

beforeAll(async () => {
  listener = http.createServer((_req, res) => res.end("interno"));
  listener.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => listener.listen(0, "::", resolve));
  port = (listener.address() as AddressInfo).port;
  msw.listen({ onUnhandledRequest: "bypass" });
});

afterEach(() => setOutgoingTestPolicy(null));

afterAll(async () => {
  msw.close();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
});

const family = (address: string) => (address.includes(":") ? 6 : 4);

/** DNS stands in for the test: `name` answers `addresses`, and the calls are counted. */
function answering(addresses: string[]) {
  const asked: string[] = [];
  setOutgoingTestPolicy({ lookup: async (hostname) => (asked.push(hostname), addresses.map((address) => ({ address, family: family(address) }) as ResolvedAddress)) });
  return asked;
}

const POST = { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}", timeoutMs: 5000 };

async function refusal(url: string) {
  const error = await requestPublicUrl(url, POST).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, url).toBeInstanceOf(PublicRequestError);
  return (error as PublicRequestError).kind;
}

describe("outgoing requests reach public addresses only", () => {
  it("a name whose lookup answers a private, loopback, link-local, CGNAT, benchmark, multicast or unspecified IPv4 is refused before connecting", async () => {
    for (const address of ["127.0.0.1", "10.0.0.7", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "198.18.0.1", "198.19.255.255", "0.0.0.0", "224.0.0.1", "255.255.255.255", "192.0.2.10"]) {
      const asked = answering([address]);
      expect(await refusal(`http://hooks.integrador.example:${port}/x`), address).toBe("unsafe");
      expect(asked).toEqual(["hooks.integrador.example"]);
    }
    expect(connections).toBe(0);
  });

  it("the same for every IPv6 form: loopback, unspecified, IPv4-mapped and IPv4-compatible of a private address, site-local, ULA, link-local, multicast", async () => {
    for (const address of ["::1", "::", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:a9fe:a9fe", "::127.0.0.1", "::a00:1", "64:ff9b::a00:1", "fec0::1", "fc00::1", "fd12:3456::1", "fe80::1", "ff02::1", "2001:db8::1", "2002:7f00:1::1"]) {
      answering([address]);
      expect(await refusal(`http://hooks.integrador.example:${port}/x`), address).toBe("unsafe");
    }
    expect(connections).toBe(0);
  });

  it("one private answer among public ones refuses the whole name (the connection could pick it)", async () => {
    answering(["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "::ffff:127.0.0.1"]);
    expect(await refusal(`http://hooks.integrador.example:${port}/x`)).toBe("unsafe");
    answering(["10.0.0.1", "93.184.215.14"]);
    expect(await refusal(`http://hooks.integrador.example:${port}/x`)).toBe("unsafe");
    expect(connections).toBe(0);
  });

  it("literal addresses in the URL, in any notation, and internal names are refused without asking DNS", async () => {
    const asked = answering(["93.184.215.14"]);
    for (const host of ["127.0.0.1", "2130706433", "0x7f000001", "0x7f.1", "0177.0.0.1", "127.1", "[::1]", "[::ffff:127.0.0.1]", "[0:0:0:0:0:ffff:7f00:1]", "[::127.0.0.1]", "localhost", "localhost.", "metadata.google.internal", "intranet"]) {
      expect(await refusal(`http://${host}:${port}/x`), host).toBe("unsafe");
    }
    expect(asked).toEqual([]);
    expect(connections).toBe(0);
  });

  it("the address rule itself", () => {
    for (const address of ["8.8.8.8", "93.184.215.14", "100.63.255.255", "100.128.0.1", "198.20.0.1", "172.32.0.1", "2606:4700::1111", "2800:3f0:4002:80a::200e", "::ffff:8.8.8.8", "64:ff9b::808:808"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    for (const address of ["100.64.0.0", "100.127.255.255", "198.18.0.0", "198.19.1.1", "172.31.255.255", "fec0::1", "feff::1", "fc00::", "fdff::1", "fe80::1%eth0", "nonsense", ""]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it("a public answer passes: the webhook arrives signed (MSW stands in for the receiver)", async () => {
    const asked = answering(["93.184.215.14"]);
    const result = await postWebhook("https://hooks.integrador.example/tribuna", "whsec_prueba", "entrega-1", '{"id":"entrega-1"}');
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(asked).toEqual(["hooks.integrador.example"]);
    expect(delivered).toHaveLength(1);
    const request = delivered[0];
    const body = await request.text();
    expect(body).toBe('{"id":"entrega-1"}');
    expect(request.headers.get("tribuna-webhook-id")).toBe("entrega-1");
    expect(verifyWebhookSignature("whsec_prueba", request.headers.get("tribuna-webhook-timestamp"), request.headers.get("tribuna-signature"), body)).toBe(true);
  });

  it("a refused delivery says only that it could not be delivered: no address, port or network error", async () => {
    answering(["169.254.169.254"]);
    const result = await postWebhook(`http://metadata.integrador.example:${port}/latest`, "whsec_prueba", "entrega-2", "{}");
    expect(result).toMatchObject({ ok: false, statusCode: null, error: "No pudimos entregar el aviso." });
    expect(connections).toBe(0);
  });
});
