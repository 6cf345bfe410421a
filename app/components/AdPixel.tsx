import { useEffect, useRef } from "react";
import { useLocation } from "@remix-run/react";
import { isValidPixelId, loadPixel, pixelInlineScript, pixelNoscriptUrl, trackPixelPageView } from "#app/lib/pixel";

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
  useEffect(() => {
    if (!valid) return;
    const initialised = loadPixel(pixelId);
    if (!initialised && location.key !== firstLocation.current) trackPixelPageView();
  }, [valid, pixelId, location.key]);

  if (!valid) return null;
  const script = pixelInlineScript(pixelId);
  const noscript = pixelNoscriptUrl(pixelId);
  return (
    <>
      {script ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} /> : null}
      {noscript ? (
        <noscript>
          <img height="1" width="1" style={{ display: "none" }} alt="" src={noscript} />
        </noscript>
      ) : null}
    </>
  );
}
