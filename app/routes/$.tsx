import { data, type MetaFunction } from "@remix-run/node";
import { NotFoundPage } from "#app/components/layout/ErrorPages";

/** Any URL no other route matches: the 404 page, with status 404. */
export const meta: MetaFunction = () => [
  { title: "Página no encontrada · Tribuna" },
  { name: "robots", content: "noindex" },
];

export function loader() {
  return data(null, { status: 404 });
}

/** A POST to an unknown URL is a 404 too (not a 405). */
export function action() {
  return data(null, { status: 404 });
}

export default function CatchAll() {
  return <NotFoundPage />;
}
