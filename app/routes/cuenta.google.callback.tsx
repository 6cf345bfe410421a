import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { OAuth2RequestError } from "remix-auth-oauth2";
import { tokenCookies } from "#server/auth/cookies";
import { getGoogleAuthenticator } from "#server/accounts/google-oauth";
import { isDomainError } from "#server/errors";
import { signedInRedirect } from "#app/lib/session.server";

const SIGN_IN = "/cuenta/iniciar-sesion";

/**
 * Google sends the browser back here. remix-auth (v4) only returns what the
 * strategy's verify returned: our tokens and the profile fields still
 * missing; the cookies are set here. Missing fields → `/cuenta/finalizar-google`
 * (the saved return path waits in `loggin-callback`); else straight on.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const authenticator = getGoogleAuthenticator();
  if (!authenticator) throw new Response("Not Found", { status: 404 });
  try {
    const { fieldsToComplete, accessToken, refreshToken } = await authenticator.authenticate("google", request);
    const tokens = { accessToken, refreshToken };
    if (fieldsToComplete.length) {
      const headers = new Headers();
      for (const cookie of tokenCookies(tokens)) headers.append("Set-Cookie", cookie);
      return redirect("/cuenta/finalizar-google", { headers });
    }
    return signedInRedirect(request, tokens);
  } catch (error) {
    if (error instanceof Response) throw error;
    // The person cancelled on Google's screen: back to the choices, nothing to explain.
    if (error instanceof OAuth2RequestError && error.code === "access_denied") return redirect(SIGN_IN);
    if (isDomainError(error)) {
      const reason = error.code === "FORBIDDEN" ? "google-email" : error.code === "CONFLICT" ? "google-account" : "google";
      return redirect(`${SIGN_IN}?error=${reason}`);
    }
    console.error("Google sign-in failed", error);
    return redirect(`${SIGN_IN}?error=google`);
  }
}
