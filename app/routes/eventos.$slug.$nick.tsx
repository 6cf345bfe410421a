import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData, useRouteLoaderData } from "@remix-run/react";
import { EventPage, type EventPageActionData, type EventPageData } from "#app/components/events/EventPage";
import { eventPageAction } from "./eventos.$slug.server";

/**
 * `/eventos/{slug}/{nick}`: the referral link of a promoter (RRPP). The
 * parent route's loader reads the nick ("Te invitó …", kept in the saved
 * cart); an unknown nick just shows the event. The forms post here, so the
 * nick stays in the address.
 */
export function action(args: ActionFunctionArgs) {
  return eventPageAction(args);
}

export default function ReferralEventRoute() {
  const page = useRouteLoaderData("routes/eventos.$slug") as EventPageData;
  const actionData = useActionData<typeof action>() as EventPageActionData | undefined;
  return <EventPage page={page} actionData={actionData} />;
}
