import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { formatEventStart, formatTime } from "#common/dates";
import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { getRequestContext } from "#app/lib/session.server";
import { withFlash } from "#app/lib/flash.server";
import { queuePath } from "#app/components/queue/redirect.server";
import type { QueuePageData, QueuePhase } from "#app/components/queue/types";
import { joinQueue, queueInfo, queuePlace } from "#server/queue/queue";
import { admissionCookieHeader } from "#server/queue/admission";
import { queuePhase, queueRefreshSeconds } from "#server/queue/poll";
import { queueLightPath } from "#server/queue/poll-path";

/**
 * `/fila/{slug}`. Both answers come from the process's copy of the queue
 * (server/queue/memory.ts): a waiting person's refresh does not query
 * PostgreSQL, so thousands asking every few seconds cost little.
 */
export async function queueLoader({ request, params }: LoaderFunctionArgs) {
  const slug = (params.slug ?? "").toLowerCase();
  const { ctx, headers } = await getRequestContext(request);
  // Personal and changing: never kept by a browser or a cache.
  headers.set("Cache-Control", "private, no-store");
  const [info, place] = await Promise.all([queueInfo(ctx, slug), ctx.actor.kind === "user" ? queuePlace(ctx, slug) : null]).catch((error: unknown) => {
    throw pageErrorResponse(error, { headers });
  });
  // An event that never had a queue: its own page (which says whether it exists).
  if (!info) throw redirect(`/eventos/${encodeURIComponent(slug)}`, { headers });
  // The turn's grant travels as a cookie: the event page, the payer page and the menu check it (docs/queue.md).
  if (place?.grant) headers.append("Set-Cookie", admissionCookieHeader(place.grant, ctx.now));

  const phase: QueuePhase = queuePhase(info);
  const page: QueuePageData = {
    event: { name: info.eventName, slug: info.eventSlug },
    signedIn: ctx.actor.kind === "user",
    phase,
    opensAtIso: info.opensAt.toISOString(),
    opensAtLabel: formatEventStart(info.opensAt),
    place: place
      ? {
          id: place.id,
          status: place.status,
          closedReason: place.closedReason,
          position: place.position,
          ahead: place.ahead,
          estimatedWaitSeconds: place.estimatedWaitSeconds,
          admissionExpiresAtIso: place.status === "ADMITTED" ? (place.admissionExpiresAt?.toISOString() ?? null) : null,
          admissionExpiresLabel: place.status === "ADMITTED" && place.admissionExpiresAt ? formatTime(place.admissionExpiresAt) : null,
        }
      : null,
    drawCommitment: info.drawCommitment,
    drawSeed: info.drawSeed,
    refreshSeconds: queueRefreshSeconds(info, place),
    refreshHref: place ? queueLightPath(info.eventSlug) : null,
    renderedAtIso: ctx.now.toISOString(),
    buyHref: `/eventos/${encodeURIComponent(info.eventSlug)}`,
  };
  return data(page, { headers });
}

/** "Sumarme a la fila": one place per account; not signed in → sign in and come back to the queue page. */
export async function queueAction({ request, params }: ActionFunctionArgs) {
  const slug = (params.slug ?? "").toLowerCase();
  const { ctx, headers } = await getRequestContext(request);
  headers.set("Cache-Control", "private, no-store");
  try {
    await joinQueue(ctx, slug);
  } catch (error) {
    throw pageErrorResponse(error, { headers, signIn: new Request(new URL(queuePath(slug), request.url)) });
  }
  return redirect(queuePath(slug), { status: 303, headers: withFlash(headers, { type: "success", message: "¡Listo! Ya estás en la fila." }) });
}
