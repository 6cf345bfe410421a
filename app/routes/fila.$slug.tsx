import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { QueuePage } from "#app/components/queue/QueuePage";
import type { ShellHandle } from "#app/root";
import { queueAction, queueLoader } from "./fila.$slug.server";

/**
 * Without the site's header and drawer: thousands of people ask for this page every few seconds, and the
 * shell is most of what rendering it costs (docs/benchmarks.md, "Fila virtual"); the page has its own way home.
 */
export const handle: ShellHandle = { shell: false };

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
