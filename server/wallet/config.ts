import { env, type Env } from "#server/env";

/** PEM text from an environment variable: accepts real line breaks or `\n` written out (one-line .env files). */
export function pemFromEnv(value: string): string {
  return value.includes("\\n") ? value.replace(/\\n/g, "\n") : value;
}

export interface AppleWalletConfig {
  teamId: string;
  passTypeId: string;
  signerCert: string;
  signerKey: string;
  signerKeyPassphrase?: string;
  wwdr: string;
}

/** Apple Wallet, when its variables are set (docs/wallet.md); null: no button, no pass, no web service. */
export function appleWalletConfig(e: Env = env()): AppleWalletConfig | null {
  const { APPLE_PASS_TEAM_ID: teamId, APPLE_PASS_TYPE_ID: passTypeId, APPLE_PASS_SIGNER_CERT: cert, APPLE_PASS_SIGNER_KEY: key, APPLE_PASS_WWDR_CERT: wwdr } = e;
  if (!teamId || !passTypeId || !cert || !key || !wwdr) return null;
  return { teamId, passTypeId, signerCert: pemFromEnv(cert), signerKey: pemFromEnv(key), signerKeyPassphrase: e.APPLE_PASS_SIGNER_KEY_PASSPHRASE, wwdr: pemFromEnv(wwdr) };
}

export interface GoogleWalletConfig {
  issuerId: string;
  serviceAccountEmail: string;
  privateKey: string;
}

/** Google Wallet, when its variables are set (docs/wallet.md); null: no button and no calls to Google. */
export function googleWalletConfig(e: Env = env()): GoogleWalletConfig | null {
  const { GOOGLE_WALLET_ISSUER_ID: issuerId, GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL: serviceAccountEmail, GOOGLE_WALLET_PRIVATE_KEY: key } = e;
  if (!issuerId || !serviceAccountEmail || !key) return null;
  return { issuerId, serviceAccountEmail, privateKey: pemFromEnv(key) };
}
