import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { computeV1, parseSignatureHeader, signatureManifest, signNotification, verifyNotificationSignature } from "./signature";

const SECRET = "whsec-tribuna-test";

/** The documented manifest, built by hand: `id:{data.id};request-id:{x-request-id};ts:{ts};`. */
function expectedV1(manifest: string) {
  return crypto.createHmac("sha256", SECRET).update(manifest).digest("hex");
}

describe("Mercado Pago notification signature", () => {
  it("builds the manifest exactly as documented, leaving out parts with no value", () => {
    expect(signatureManifest({ dataId: "123456789", requestId: "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", ts: "1742505638683" })).toBe(
      "id:123456789;request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1742505638683;",
    );
    expect(signatureManifest({ dataId: "123", ts: "17" })).toBe("id:123;ts:17;");
    expect(signatureManifest({ requestId: "r", ts: "17" })).toBe("request-id:r;ts:17;");
    expect(signatureManifest({ dataId: "ABC123", requestId: "r", ts: "1" })).toBe("id:abc123;request-id:r;ts:1;");
  });

  it("matches a fixed vector and verifies it", () => {
    const manifest = "id:123456789;request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1742505638683;";
    const v1 = expectedV1(manifest);
    expect(v1).toMatch(/^[0-9a-f]{64}$/);
    expect(computeV1(SECRET, manifest)).toBe(v1);
    const header = signNotification(SECRET, { dataId: "123456789", requestId: "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", ts: "1742505638683" });
    expect(header).toBe(`ts=1742505638683,v1=${v1}`);
    expect(parseSignatureHeader(` ts=1742505638683 , v1=${v1}`)).toEqual({ ts: "1742505638683", v1 });
    const ok = { signatureHeader: header, requestId: "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", dataId: "123456789" };
    expect(verifyNotificationSignature(SECRET, ok)).toBe(true);
    expect(verifyNotificationSignature(SECRET, { ...ok, signatureHeader: `v1=${v1.toUpperCase()},ts=1742505638683` })).toBe(true);
  });

  it("verifies a notification without x-request-id against the shorter manifest", () => {
    const v1 = expectedV1("id:42;ts:1700000000;");
    expect(verifyNotificationSignature(SECRET, { signatureHeader: `ts=1700000000,v1=${v1}`, requestId: null, dataId: "42" })).toBe(true);
  });

  it("rejects wrong, missing or malformed signatures", () => {
    const header = signNotification(SECRET, { dataId: "42", requestId: "req", ts: "1700000000" });
    const ok = { signatureHeader: header, requestId: "req", dataId: "42" };
    expect(verifyNotificationSignature("other-secret", ok)).toBe(false);
    expect(verifyNotificationSignature(null, ok)).toBe(false);
    expect(verifyNotificationSignature(SECRET, { ...ok, dataId: "43" })).toBe(false);
    expect(verifyNotificationSignature(SECRET, { ...ok, requestId: "other" })).toBe(false);
    expect(verifyNotificationSignature(SECRET, { ...ok, signatureHeader: header.replace("ts=1700000000", "ts=1700000001") })).toBe(false);
    expect(verifyNotificationSignature(SECRET, { ...ok, signatureHeader: undefined })).toBe(false);
    expect(verifyNotificationSignature(SECRET, { ...ok, signatureHeader: "ts=1700000000" })).toBe(false);
    expect(verifyNotificationSignature(SECRET, { ...ok, signatureHeader: "ts=1700000000,v1=abc" })).toBe(false);
    expect(verifyNotificationSignature(SECRET, { ...ok, signatureHeader: "garbage" })).toBe(false);
  });
});
