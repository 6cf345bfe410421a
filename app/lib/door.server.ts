import crypto from "node:crypto";
import { parseCookies, serializeCookie } from "#server/auth/cookies";
import { normalizeDoorName } from "#common/door";
import { doorSessionCookieName } from "#server/door/access";

/**
 * The door device's cookies: the PIN session for one event (`door-{slug}`,
 * until the night is over), the door it stands at and its own id (a year).
 */
export const DOOR_NAME_COOKIE = "door-name";
export const DOOR_DEVICE_COOKIE = "door-device";


export function readDoorCookies(request: Request, slug: string) {
  const cookies = parseCookies(request.headers.get("cookie"));
  return {
    session: cookies[doorSessionCookieName(slug)] ?? null,
    doorName: cookies[DOOR_NAME_COOKIE] ? normalizeDoorName(cookies[DOOR_NAME_COOKIE]) : null,
    deviceId: /^[A-Za-z0-9_-]{8,64}$/.test(cookies[DOOR_DEVICE_COOKIE] ?? "") ? cookies[DOOR_DEVICE_COOKIE] : null,
  };
}

export function doorSessionCookie(slug: string, token: string, expiresAt: Date, now: Date): string {
  return serializeCookie(doorSessionCookieName(slug), token, { maxAge: Math.max(1, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)) });
}

export function clearDoorSessionCookie(slug: string): string {
  return serializeCookie(doorSessionCookieName(slug), "", { maxAge: 0 });
}

const YEAR = 365 * 24 * 3600;

export function doorNameCookie(name: string): string {
  return serializeCookie(DOOR_NAME_COOKIE, normalizeDoorName(name), { maxAge: YEAR });
}

export function newDeviceCookie(): { deviceId: string; cookie: string } {
  const deviceId = crypto.randomBytes(12).toString("base64url");
  return { deviceId, cookie: serializeCookie(DOOR_DEVICE_COOKIE, deviceId, { maxAge: YEAR }) };
}
