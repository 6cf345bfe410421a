/**
 * Responsive images (decision 112). Every image we can decode is stored as WebP at several widths:
 * `/imagenes/{id}-{w}.webp`, where `w` is the widest variant (up to 1200 px) and the narrower ones are the
 * IMAGE_WIDTHS below it, each `/imagenes/{id}-{width}.webp`. So the URL alone says which variants exist, and
 * pages build `srcset` from it without asking the server. Older uploads (`/imagenes/{id}.jpg`) have no variants.
 */
export const IMAGE_WIDTHS = [400, 800, 1200] as const;

/** The widest variant we make: anything wider is scaled down to it. */
export const MAX_IMAGE_WIDTH = IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1];

const VARIANT_URL = /^\/imagenes\/([a-f0-9]{32})-(\d{2,4})\.webp$/;

/** The widths stored for an image whose widest variant is `widest` px. */
export function variantWidths(widest: number): number[] {
  return [...IMAGE_WIDTHS.filter((w) => w < widest), widest];
}

export interface ResponsiveImage {
  src: string;
  /** `url 400w, url 800w, …`, or null when the image has no width variants. */
  srcSet: string | null;
}

/** `src` and `srcset` for a stored image URL. */
export function responsiveImage(url: string): ResponsiveImage {
  const match = VARIANT_URL.exec(url);
  if (!match) return { src: url, srcSet: null };
  const [, id, widest] = match;
  const widths = variantWidths(Number(widest));
  return { src: url, srcSet: widths.map((w) => `/imagenes/${id}-${w}.webp ${w}w`).join(", ") };
}
