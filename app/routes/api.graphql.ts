import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { yoga } from "#server/graphql/yoga";

// Thin resource route: yoga is created once at module level (decision 129).
export function loader({ request }: LoaderFunctionArgs) {
  return yoga.handleRequest(request, {});
}

export function action({ request }: ActionFunctionArgs) {
  return yoga.handleRequest(request, {});
}
