import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getGoogleAuthenticator } from "#server/accounts/google-oauth";

/**
 * Starts "Con Google": remix-auth's OAuth2 strategy answers with a redirect to
 * Google (state and PKCE verifier in a short cookie). 404 when Google is not configured.
 */
async function start(request: Request): Promise<Response> {
  const authenticator = getGoogleAuthenticator();
  if (!authenticator) throw new Response("Not Found", { status: 404 });
  // Without `code`/`state` in the URL the strategy always throws its redirect to Google.
  await authenticator.authenticate("google", request);
  throw new Response("Not Found", { status: 404 });
}

export function loader({ request }: LoaderFunctionArgs) {
  return start(request);
}

export function action({ request }: ActionFunctionArgs) {
  return start(request);
}
