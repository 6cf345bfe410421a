import { data, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { serializeCookie } from "#server/auth/cookies";
import { THEME_KEY, THEMES, type Theme } from "#app/lib/theme";

/** One year: a preference, not a session. */
export const THEME_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

function isTheme(value: unknown): value is Theme {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value);
}

/** Only paths on this site: "/x", never "//host" or "/\host". */
function safeRedirect(value: FormDataEntryValue | null): string | null {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  return value;
}

/**
 * POST /preferencias/tema with `theme` = dark | light | system.
 * Sets the `theme` cookie. A plain form (no JavaScript) also sends
 * `redirectTo` and goes back to that page; a fetcher gets `{ theme }`.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const theme = form.get("theme");
  if (!isTheme(theme)) {
    return data({ error: "Elegí un tema: oscuro, claro o del sistema." }, { status: 400 });
  }
  // Readable by scripts on purpose: it is a display preference, not a secret.
  const headers = new Headers({
    "Set-Cookie": serializeCookie(THEME_KEY, theme, { maxAge: THEME_COOKIE_MAX_AGE, httpOnly: false }),
  });
  const redirectTo = safeRedirect(form.get("redirectTo"));
  if (form.has("redirectTo")) return redirect(redirectTo ?? "/", { headers });
  return data({ theme }, { headers });
}

/** Someone opening the URL directly. */
export function loader() {
  return redirect("/");
}
