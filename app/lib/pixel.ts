/**
 * Ad pixel (Meta pixel style). The spec: any page may take `?pixelId=`; the
 * pixel loads only when the value is all digits. The id is validated again
 * here, so nothing but digits ever reaches a script.
 */

/**
 * The spec's pixel id rule (all digits), the same as `isValidPixelId` in
 * validation.ts; repeated here so the pixel, which is on every page, does not
 * pull zod into the browser bundle. A test keeps both in step.
 */
export function isValidPixelId(value: string | null | undefined): value is string {
  return typeof value === "string" && /^\d+$/.test(value);
}

export const PIXEL_SCRIPT_SRC = "https://connect.facebook.net/en_US/fbevents.js";

/**
 * The vendor's loader stub, then `fbq('init', id)` and a PageView. `null` for anything but digits. The stub
 * queues the calls at once; the vendor's script is requested only after the page's `load` event, so it never
 * competes with the page's own files before the first paint (decision 132).
 */
export function pixelInlineScript(pixelId: string | null | undefined): string | null {
  if (!isValidPixelId(pixelId)) return null;
  return (
    "!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?" +
    "n.callMethod.apply(n,arguments):n.queue.push(arguments)};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;" +
    "n.version='2.0';n.queue=[];var l=function(){t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];" +
    "s.parentNode.insertBefore(t,s)};b.readyState==='complete'?l():f.addEventListener('load',l)" +
    `}(window,document,'script','${PIXEL_SCRIPT_SRC}');` +
    `window.__pixelIds=(window.__pixelIds||[]).concat('${pixelId}');` +
    `fbq('init','${pixelId}');fbq('track','PageView');`
  );
}

/** The no-JavaScript fallback image. */
export function pixelNoscriptUrl(pixelId: string | null | undefined): string | null {
  if (!isValidPixelId(pixelId)) return null;
  return `https://www.facebook.com/tr?id=${pixelId}&ev=PageView&noscript=1`;
}
