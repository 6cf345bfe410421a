import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirectMistypedReferral } from "./eventos.$slug.server";

/**
 * `/eventos/{slug}/{nick}/{anything}`: a referral link with something stuck
 * to its end (a mistyped or mangled share). Back to `/eventos/{slug}/{nick}`,
 * keeping the nick and the query string.
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  return redirectMistypedReferral(request, params);
}

export function action({ request, params }: ActionFunctionArgs) {
  return redirectMistypedReferral(request, params);
}

export default function MistypedReferral() {
  return null;
}
