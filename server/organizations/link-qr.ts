import { and, asc, eq, ne } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "#server/context";
import { events } from "#server/db/schema";
import { appUrl } from "#server/env";
import { Invalid } from "#server/errors";
import { qrPng, qrSvg } from "#server/tickets/qr";
import { requireCapability } from "./permissions";

const NOT_OURS = "Solo generamos QR de links de Tribuna (por ejemplo, la página de tu evento o tu link de RRPP).";

/** A Tribuna link from what was pasted: a full URL of this site, or a path ("/eventos/…"). */
function tribunaLink(value: unknown): string {
  const text = typeof value === "string" ? value.trim() : "";
  if (!text) throw new Invalid({ url: ["Pegá el link que querés convertir en QR."] });
  if (text.length > 2000) throw new Invalid({ url: ["El link es demasiado largo."] });
  const base = new URL(appUrl());
  let url: URL;
  try {
    url = text.startsWith("/") && !text.startsWith("//") ? new URL(text, base) : new URL(text);
  } catch {
    throw new Invalid({ url: [NOT_OURS] });
  }
  if (url.origin !== base.origin) throw new Invalid({ url: [NOT_OURS] });
  return url.toString();
}

const organizationId = z.string().uuid();

/** `/organizacion/generador-qr`: the QR of a Tribuna link (event, referral link, menu), as SVG. */
export async function linkQr(ctx: Ctx, input: { organizationId: string; url: unknown }) {
  await requireCapability(ctx, organizationId.parse(input.organizationId), "events:manage");
  const url = tribunaLink(input.url);
  return { url, svg: await qrSvg(url) };
}

export async function linkQrPng(ctx: Ctx, input: { organizationId: string; url: unknown }, width = 1024): Promise<{ url: string; png: Buffer }> {
  await requireCapability(ctx, organizationId.parse(input.organizationId), "events:manage");
  const url = tribunaLink(input.url);
  return { url, png: await qrPng(url, width) };
}

/** Quick picks: the organization's events' public pages. */
export async function organizationLinks(ctx: Ctx, orgId: string) {
  await requireCapability(ctx, orgId, "events:manage");
  const rows = await ctx.db
    .select({ name: events.name, slug: events.slug })
    .from(events)
    .where(and(eq(events.organizationId, orgId), ne(events.status, "deleted")))
    .orderBy(asc(events.name));
  return rows.map((r) => ({ label: r.name, url: `${appUrl()}/eventos/${r.slug}` }));
}
