import { useEffect, useRef } from "react";
import { useLocation } from "@remix-run/react";
import { isValidPixelId, pixelInlineScript, pixelNoscriptUrl } from "#app/lib/pixel";

/**
 * The ad pixel for `?pixelId=` (root data `pixelId`, already validated by the
 * loader and validated again here). Renders nothing for a missing or
 * non-digit id, so no tracking script is ever loaded for it.
 */
export function AdPixel({ pixelId, nonce }: { pixelId: string | null | undefined; nonce?: string }) {
  const valid = isValidPixelId(pixelId);
  const location = useLocation();
  const firstLocation = useRef(location.key);

  // Server-rendered pages ran the inline script; a client navigation to a page
  // with a (new) id needs the loader run by hand. Later navigations count a PageView.
  // The loader is its own chunk, fetched only here (decision 239).
  useEffect(() => {
    if (!valid) return;
    const navigated = location.key !== firstLocation.current;
    import("#app/lib/pixel-client")
      .then(({ loadPixel, trackPixelPageView }) => {
        const initialised = loadPixel(pixelId);
        if (!initialised && navigated) trackPixelPageView();
      })
      .catch(() => {
        // A blocked chunk leaves the page without its pixel, never broken.
      });
  }, [valid, pixelId, location.key]);

  if (!valid) return null;
  // The script's text only matters in the server's HTML: React never runs a script it inserts (after a
  // navigation, loadPixel does the job), and hydration keeps the server's text as it is. So the browser bundle
  // leaves the text out (`import.meta.env.SSR` is false there) and renders the same element, empty.
  const script = import.meta.env.SSR ? (pixelInlineScript(pixelId) ?? "") : "";
  const noscript = pixelNoscriptUrl(pixelId);
  return (
    <>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: script }} />
      {noscript ? (
        <noscript>
          <img height="1" width="1" style={{ display: "none" }} alt="" src={noscript} />
        </noscript>
      ) : null}
    </>
  );
}
