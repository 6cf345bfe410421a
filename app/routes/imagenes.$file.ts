import type { LoaderFunctionArgs } from "@remix-run/node";
import { readImage } from "#server/media/images";

/**
 * GET /imagenes/{file}: an uploaded image. Names are random and never reused,
 * so browsers and proxies may keep them forever. Anything that is not one of
 * our stored names (`..`, slashes, other files) is a plain 404.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const image = await readImage(params.file ?? "");
  if (!image) {
    return new Response("No encontramos la imagen.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return new Response(new Uint8Array(image.bytes), {
    status: 200,
    headers: {
      "Content-Type": image.contentType,
      "Content-Length": String(image.bytes.length),
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    },
  });
}
