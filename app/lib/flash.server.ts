import { parseCookies, serializeCookie } from "#server/auth/cookies";

/** A one-time snackbar message that survives a redirect, with or without JavaScript. */
export type Flash = { type: "success" | "error"; message: string };

const FLASH_COOKIE = "flash";

export function flashCookie(flash: Flash): string {
  return serializeCookie(FLASH_COOKIE, JSON.stringify(flash), { maxAge: 60 });
}

export function readFlash(request: Request): { flash: Flash | null; clear: string | null } {
  const raw = parseCookies(request.headers.get("cookie"))[FLASH_COOKIE];
  if (!raw) return { flash: null, clear: null };
  const clear = serializeCookie(FLASH_COOKIE, "", { maxAge: 0 });
  try {
    const parsed = JSON.parse(raw) as Flash;
    if ((parsed.type === "success" || parsed.type === "error") && typeof parsed.message === "string") {
      return { flash: { type: parsed.type, message: parsed.message.slice(0, 300) }, clear };
    }
  } catch {
    // A tampered cookie is simply dropped.
  }
  return { flash: null, clear };
}

/** Adds a flash to a redirect or response's headers. */
export function withFlash(headers: HeadersInit | undefined, flash: Flash): Headers {
  const out = new Headers(headers);
  out.append("Set-Cookie", flashCookie(flash));
  return out;
}
