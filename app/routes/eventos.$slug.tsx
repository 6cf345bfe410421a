import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useOutlet } from "@remix-run/react";
import { cacheHeadersFrom } from "#app/lib/cache.server";
import { EventPage, type EventPageActionData } from "#app/components/events/EventPage";
import { eventPageAction, eventPageLoader } from "./eventos.$slug.server";
import { ResaleOffers } from "#app/components/resale/ResaleOffers";

/**
 * `/eventos/{slug}`: the event and its ticket picker. The referral link
 * `/eventos/{slug}/{nick}` is a child route (eventos.$slug.$nick.tsx): this
 * loader reads `params.nick` too, and the child renders the same page.
 */
export function loader(args: LoaderFunctionArgs) {
  return eventPageLoader(args);
}

export function action(args: ActionFunctionArgs) {
  return eventPageAction(args);
}

export const headers: HeadersFunction = ({ loaderHeaders }) => cacheHeadersFrom(loaderHeaders);

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: "Página no encontrada · Tribuna" }, { name: "robots", content: "noindex" }];
  const { event, dates } = data;
  const when = dates[0] ? ` · ${dates[0].startsLabel}` : "";
  const description = (event.description || `${event.name} en ${event.venue.name}, ${event.venue.city}.`).replace(/\s+/g, " ").slice(0, 160);
  return [
    { title: `${event.name}${when} · Tribuna` },
    { name: "description", content: description },
    { property: "og:title", content: event.name },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
    ...(event.imageUrl ? [{ property: "og:image", content: event.imageUrl }] : []),
  ];
};

export default function EventRoute() {
  const outlet = useOutlet();
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as EventPageActionData | undefined;
  // On the referral link the child route renders the page (and receives its action's answers).
  // Resale hook (docs/resale.md): "Reventa oficial" under the page when tickets are listed.
  return (
    outlet ?? (
      <>
        <EventPage page={page} actionData={actionData} />
        <ResaleOffers offers={page.resale} />
      </>
    )
  );
}
