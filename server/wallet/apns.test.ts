import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { throwawayPassCertificates } from "#tests/support/wallet";
import { apnsSender } from "./apns";

const certs = throwawayPassCertificates();
const config = { teamId: "ABCDE12345", passTypeId: "pass.ar.tribuna.test", signerCert: certs.signerCert, signerKey: certs.signerKey, signerKeyPassphrase: certs.passphrase, wwdr: certs.wwdr };

/** A local stand-in for APNs: HTTP/2 over TLS that asks for a client certificate from the CA, as Apple's does. */
const seen: { path: string; topic: string; body: string; client: string }[] = [];
const server = http2.createSecureServer({ key: certs.serverKey, cert: certs.serverCert, ca: certs.wwdr, requestCert: true, rejectUnauthorized: true }, (req, res) => {
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
  req.on("end", () => {
    const client = String((req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? "");
    seen.push({ path: req.url, topic: String(req.headers["apns-topic"]), body, client });
    if (req.url.endsWith("/token-removed")) {
      res.writeHead(410, { "content-type": "application/json" }).end(JSON.stringify({ reason: "Unregistered" }));
    } else if (req.url.endsWith("/token-bad")) {
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ reason: "BadDeviceToken" }));
    } else res.writeHead(200).end();
  });
});
let origin = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `https://localhost:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("apnsSender", () => {
  it("pushes an empty payload to the device with the pass type as topic, authenticated with the pass certificate", async () => {
    const apns = apnsSender(config, { origin, ca: certs.wwdr });
    try {
      expect(await apns.push("token-ok", "pass.ar.tribuna.test")).toBe("sent");
      expect(await apns.push("token-removed", "pass.ar.tribuna.test")).toBe("gone");
      await expect(apns.push("token-bad", "pass.ar.tribuna.test")).rejects.toThrow(/APNs respondió 400: .*BadDeviceToken/);
    } finally {
      apns.close();
    }
    expect(seen[0]).toEqual({ path: "/3/device/token-ok", topic: "pass.ar.tribuna.test", body: "{}", client: "Pass Type ID: pass.ar.tribuna.test" });
  });
});
