import { data, type MetaFunction } from "@remix-run/node";
import { ServerErrorPage } from "#app/components/layout/ErrorPages";

export const meta: MetaFunction = () => [
  { title: "Algo salió mal de nuestro lado · Tribuna" },
  { name: "robots", content: "noindex" },
];

export function loader() {
  return data(null, { status: 500 });
}

export default function ServerError() {
  return <ServerErrorPage retry={false} />;
}
