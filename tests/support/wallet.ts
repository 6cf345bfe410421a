import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";

/** A throwaway CA (standing in for Apple's WWDR) and a pass signer certificate it issued, made with openssl. */
export function throwawayPassCertificates(passphrase = "clave-de-prueba") {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wallet-ca-"));
  const run = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Prueba WWDR");
  run("req", "-newkey", "rsa:2048", "-passout", `pass:${passphrase}`, "-keyout", "signer.key", "-out", "signer.csr", "-subj", "/UID=pass.ar.tribuna.test/CN=Pass Type ID: pass.ar.tribuna.test");
  run("x509", "-req", "-in", "signer.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "signer.pem", "-days", "2");
  // A server certificate for localhost from the same CA: a local HTTP/2 server standing in for APNs.
  fs.writeFileSync(path.join(dir, "server.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
  run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost");
  run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "server.ext");
  const read = (f: string) => fs.readFileSync(path.join(dir, f), "utf8");
  return { dir, wwdr: read("ca.pem"), signerCert: read("signer.pem"), signerKey: read("signer.key"), passphrase, serverCert: read("server.pem"), serverKey: read("server.key") };
}

/** The files of a zip (stored or deflated), read from its central directory. */
export function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error("not a zip");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error("bad central directory");
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataAt, dataAt + size);
    files.set(name, method === 0 ? Buffer.from(raw) : zlib.inflateRawSync(raw));
    at += 46 + nameLength + extra + comment;
  }
  return files;
}

export const sha1 = (data: Buffer) => crypto.createHash("sha1").update(data).digest("hex");

/** `openssl smime -verify` of the detached signature over manifest.json against `caPem`; throws when it does not verify. */
export function verifyPassSignature(files: Map<string, Buffer>, caPem: string): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wallet-sig-"));
  fs.writeFileSync(path.join(dir, "manifest.json"), files.get("manifest.json")!);
  fs.writeFileSync(path.join(dir, "signature"), files.get("signature")!);
  fs.writeFileSync(path.join(dir, "ca.pem"), caPem);
  execFileSync("openssl", ["smime", "-verify", "-binary", "-inform", "DER", "-in", "signature", "-content", "manifest.json", "-CAfile", "ca.pem", "-purpose", "any", "-out", "/dev/null"], { cwd: dir, stdio: "pipe" });
}
