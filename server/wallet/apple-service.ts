import { and, eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "#server/db/client";
import { walletDeviceRegistrations, walletPassUpdates } from "#server/db/schema";
import { log } from "#server/monitoring/log";
import { enqueue } from "#server/jobs/queue";
import { buildApplePass } from "./apple-pass";
import { appleBarcodeFor } from "./barcode";
import { WALLET_PASS_REVEAL_JOB } from "./changes";
import { appleWalletConfig, type AppleWalletConfig } from "./config";
import { walletPassOfSerial } from "./pass-data";
import { passAuthorized, ticketIdOfSerial } from "./serial";

/** A pass's update tag as Apple reads it: microseconds since 1970 of its last change, as text. */
const TAG = sql<string>`(extract(epoch from ${walletPassUpdates.updatedAt}) * 1000000)::bigint::text`;

function empty(status: number): Response {
  return new Response(null, { status });
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/**
 * Apple's PassKit web service (docs/wallet.md), under `/api/wallet/apple`:
 * `path` is what follows it (`/v1/devices/…`, `/v1/passes/…`, `/v1/log`).
 * Every pass call needs `Authorization: ApplePass <token>`, the token of that
 * serial (server/wallet/serial.ts); the list of updated serials is per device
 * and needs none, as Apple's protocol says.
 */
export async function appleWebService(db: DbOrTx, config: AppleWalletConfig, request: Request, path: string): Promise<Response> {
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] !== "v1") return empty(404);
  const auth = request.headers.get("Authorization");

  // /v1/devices/{device}/registrations/{passType}/{serial}: register (POST) or unregister (DELETE).
  if (parts[1] === "devices" && parts[3] === "registrations" && parts.length === 6) {
    const [, , device, , passType, serial] = parts;
    if (passType !== config.passTypeId || !ticketIdOfSerial(serial) || !passAuthorized(serial, auth)) return empty(401);
    if (request.method === "POST") {
      const body = (await request.json().catch(() => null)) as { pushToken?: unknown } | null;
      if (typeof body?.pushToken !== "string" || !body.pushToken) return empty(400);
      const inserted = await db
        .insert(walletDeviceRegistrations)
        .values({ deviceLibraryId: device, passTypeId: passType, serialNumber: serial, pushToken: body.pushToken })
        .onConflictDoUpdate({ target: [walletDeviceRegistrations.deviceLibraryId, walletDeviceRegistrations.passTypeId, walletDeviceRegistrations.serialNumber], set: { pushToken: body.pushToken } })
        .returning({ created: sql<boolean>`xmax = 0` });
      // A live-QR pass registered before its QR shows: one push at the reveal time brings the QR (decision 207).
      const ticketId = ticketIdOfSerial(serial);
      const data = inserted[0]?.created && ticketId ? await walletPassOfSerial(db, ticketId, serial) : null;
      if (data?.live && !data.voided && !appleBarcodeFor(data, new Date())) await enqueue(db, WALLET_PASS_REVEAL_JOB, { serials: [serial] }, data.live.staticFrom);
      return empty(inserted[0]?.created ? 201 : 200);
    }
    if (request.method === "DELETE") {
      await db.delete(walletDeviceRegistrations).where(and(eq(walletDeviceRegistrations.deviceLibraryId, device), eq(walletDeviceRegistrations.passTypeId, passType), eq(walletDeviceRegistrations.serialNumber, serial)));
      return empty(200);
    }
    return empty(405);
  }

  // /v1/devices/{device}/registrations/{passType}?passesUpdatedSince={tag}: the serials changed since the tag.
  if (parts[1] === "devices" && parts[3] === "registrations" && parts.length === 5 && request.method === "GET") {
    const [, , device, , passType] = parts;
    const since = new URL(request.url).searchParams.get("passesUpdatedSince");
    const sinceTag = since && /^\d{1,19}$/.test(since) ? since : null;
    const rows = await db
      .select({ serial: walletDeviceRegistrations.serialNumber, tag: TAG })
      .from(walletDeviceRegistrations)
      .leftJoin(walletPassUpdates, eq(walletPassUpdates.serialNumber, walletDeviceRegistrations.serialNumber))
      .where(and(eq(walletDeviceRegistrations.deviceLibraryId, device), eq(walletDeviceRegistrations.passTypeId, passType), sinceTag ? sql`${TAG}::bigint > ${sinceTag}::bigint` : undefined));
    if (!rows.length) return empty(204);
    const lastUpdated = rows.reduce((max, r) => (r.tag && BigInt(r.tag) > BigInt(max) ? r.tag : max), sinceTag ?? "0");
    return json({ serialNumbers: rows.map((r) => r.serial), lastUpdated });
  }

  // /v1/passes/{passType}/{serial}: the pass as it is now (voided when its ticket was voided, sent or resold).
  if (parts[1] === "passes" && parts.length === 4 && request.method === "GET") {
    const [, , passType, serial] = parts;
    const ticketId = ticketIdOfSerial(serial);
    if (passType !== config.passTypeId || !ticketId || !passAuthorized(serial, auth)) return empty(401);
    const data = await walletPassOfSerial(db, ticketId, serial);
    if (!data) return empty(404);
    const [update] = await db.select({ updatedAt: walletPassUpdates.updatedAt }).from(walletPassUpdates).where(eq(walletPassUpdates.serialNumber, serial));
    const modified = update?.updatedAt;
    const since = request.headers.get("If-Modified-Since");
    if (modified && since && Math.floor(modified.getTime() / 1000) <= Math.floor(Date.parse(since) / 1000)) return empty(304);
    const headers = new Headers({ "Content-Type": "application/vnd.apple.pkpass", "Cache-Control": "no-store" });
    if (modified) headers.set("Last-Modified", modified.toUTCString());
    return new Response(new Uint8Array(await buildApplePass(config, data)), { status: 200, headers });
  }

  // /v1/log: what the devices report going wrong with our passes.
  if (parts[1] === "log" && parts.length === 2 && request.method === "POST") {
    const body = (await request.json().catch(() => null)) as { logs?: unknown } | null;
    const logs = Array.isArray(body?.logs) ? body.logs.filter((l): l is string => typeof l === "string").slice(0, 50) : [];
    for (const line of logs) log().warn({ area: "wallet", message: line.slice(0, 500) }, "Apple Wallet informa un problema con un pase");
    return empty(200);
  }
  return empty(404);
}

/**
 * The web service's entry point for its resource route (app/routes/api.wallet.apple.$.ts), as yoga is
 * GraphQL's: Apple's devices carry no session, so the route needs no request context; the database and
 * the configuration are taken here. 404 when Apple Wallet is not set up.
 */
export async function handleAppleWebServiceRequest(request: Request, path: string, config: AppleWalletConfig | null = appleWalletConfig()): Promise<Response> {
  if (!config) return empty(404);
  return appleWebService(await getDb(), config, request, path);
}
