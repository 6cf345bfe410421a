import crypto from "node:crypto";
import { authSecret } from "#server/env";

/**
 * Secrets we must read back (Mercado Pago tokens, two-factor keys) are kept
 * encrypted at rest with AES-256-GCM. Each use has its own key, derived from
 * AUTH_SECRET with HKDF and the purpose as info, so one kind of secret never
 * decrypts another.
 */
export type SecretPurpose = "mercadopago-oauth-tokens" | "two-factor-keys" | "door-pins" | "webhook-secrets" | "live-qr-keys";

function keyFor(purpose: SecretPurpose): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", authSecret(), "tribuna", purpose, 32));
}

/** AES-256-GCM with a random IV: `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function encryptSecret(plain: string, purpose: SecretPurpose): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", keyFor(purpose), iv);
  const encrypted = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), encrypted.toString("base64url")].join(".");
}

export function decryptSecret(stored: string, purpose: SecretPurpose): string {
  const [version, iv, tag, data] = stored.split(".");
  if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("Secreto cifrado con formato desconocido");
  const decipher = crypto.createDecipheriv("aes-256-gcm", keyFor(purpose), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
