import { data, type MetaFunction } from "@remix-run/node";
import { NotFoundPage } from "#app/components/layout/ErrorPages";

export const meta: MetaFunction = () => [
  { title: "Página no encontrada · Tribuna" },
  { name: "robots", content: "noindex" },
];

export function loader() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundPage />;
}
