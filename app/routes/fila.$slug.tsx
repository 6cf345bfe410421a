import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { QueuePage } from "#app/components/queue/QueuePage";
import { queueAction, queueLoader } from "./fila.$slug.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Fila virtual: ${data.event.name} · Tribuna` : "Fila virtual · Tribuna" },
  { name: "robots", content: "noindex" },
];

/**
 * `/fila/{slug}`: the event's virtual queue (docs/queue.md). Server-rendered
 * and whole without JavaScript (the page asks again by itself); with it, it
 * updates in place.
 */
export function loader(args: LoaderFunctionArgs) {
  return queueLoader(args);
}

/** "Sumarme a la fila". */
export function action(args: ActionFunctionArgs) {
  return queueAction(args);
}

export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) => actionHeaders ?? loaderHeaders;

export default function QueueRoute() {
  return <QueuePage page={useLoaderData<typeof loader>()} />;
}
