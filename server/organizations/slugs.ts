/**
 * Organization pages live at `/{slug}`, so a slug can never be the first
 * segment of one of the app's own routes (now or planned in the spec).
 */
export const RESERVED_SLUGS = new Set([
  "404", "500", "admin", "api", "app", "assets", "ayuda", "build", "canjear", "checkout", "cuenta", "dev",
  "eventos", "evento", "favicon.ico", "favicon.svg", "graphql", "ingest", "login", "logout", "menu", "monitoring",
  "organizacion", "organizador", "organizaciones", "preferencias", "public", "robots.txt", "sandbox", "sitemap.xml",
  "static", "terminos-y-condiciones", "tickets", "tribuna", "vivos", "webhooks", "www",
]);

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MESSAGES = {
  format: "Usá solo minúsculas sin tildes, números y guiones (por ejemplo: mi-productora)",
  length: "El link debe tener entre 3 y 50 caracteres",
  reserved: "Ese link está reservado, elegí otro",
  taken: "Ese link ya lo usa otra organización",
} as const;

export { slugify } from "#common/slug";

export function slugProblem(slug: string): string | null {
  if (slug.length < 3 || slug.length > 50) return SLUG_MESSAGES.length;
  if (!SLUG_PATTERN.test(slug)) return SLUG_MESSAGES.format;
  if (RESERVED_SLUGS.has(slug)) return SLUG_MESSAGES.reserved;
  return null;
}
