import { responsiveImage } from "#common/images";

declare module "react" {
  // React 18 passes the attribute through only in lowercase (`fetchPriority` is React 19's).
  interface ImgHTMLAttributes<T> {
    fetchpriority?: "high" | "low" | "auto";
    /** Element Timing: the browser reports when this image was painted (ScriptsAfterPaint waits for it). */
    elementtiming?: string;
  }
}

/**
 * An event's picture in a fixed 16:9 box, so nothing moves while it loads.
 * Images stored at several widths (common/images.ts) go with `srcset`, and
 * `sizes` says how wide the box is, so a phone downloads the 400 or 800 px
 * copy and a desktop the one it needs. Without an image: a gradient with the
 * category, drawn by CSS (no request).
 */
const GRADIENTS: Record<string, string> = {
  recitales: "from-secondary-700 via-secondary-500 to-primary-500",
  fiestas: "from-fuchsia-700 via-secondary-600 to-primary-400",
  teatro: "from-rose-800 via-rose-600 to-amber-500",
  "stand-up": "from-amber-600 via-orange-500 to-rose-500",
  festivales: "from-primary-700 via-primary-500 to-lime-400",
  deportes: "from-sky-800 via-sky-600 to-primary-400",
  gastronomia: "from-red-900 via-red-700 to-amber-500",
  conferencias: "from-slate-800 via-slate-600 to-sky-600",
  infantiles: "from-pink-600 via-orange-400 to-yellow-300",
  otros: "from-primary-800 via-primary-600 to-secondary-600",
};

export const IMAGE_WIDTH = 640;
export const IMAGE_HEIGHT = 360;

export function EventImage({
  imageUrl,
  alt,
  category,
  categoryLabel,
  eager = false,
  priority = false,
  sizes = "100vw",
  className = "",
}: {
  imageUrl: string | null;
  alt: string;
  category: string;
  categoryLabel: string;
  /** Above the fold (first cards, the event page): load at once. */
  eager?: boolean;
  /** The page's largest picture (its LCP: the event page's, the home's featured event): fetched before the scripts. */
  priority?: boolean;
  /** How wide the box is drawn, as the `sizes` attribute (cards pass their column width); the whole screen unless said. */
  sizes?: string;
  className?: string;
}) {
  const image = imageUrl ? responsiveImage(imageUrl) : null;
  return (
    <div className={`relative aspect-[16/9] w-full overflow-hidden bg-[var(--border)] ${className}`}>
      {image ? (
        <img
          src={image.src}
          srcSet={image.srcSet ?? undefined}
          sizes={image.srcSet ? sizes : undefined}
          alt={alt}
          width={IMAGE_WIDTH}
          height={IMAGE_HEIGHT}
          loading={eager || priority ? "eager" : "lazy"}
          fetchpriority={priority ? "high" : undefined}
          elementtiming={priority ? "imagen-principal" : undefined}
          decoding="async"
          className="absolute inset-0 h-full w-full object-cover"
        />
      ) : (
        <div
          data-placeholder=""
          className={`absolute inset-0 flex items-end bg-linear-to-br p-4 ${GRADIENTS[category] ?? GRADIENTS.otros}`}
        >
          <div
            aria-hidden="true"
            className="absolute inset-0 opacity-30 [background-image:radial-gradient(circle_at_20%_20%,rgba(255,255,255,.45)_0,transparent_40%),radial-gradient(circle_at_85%_70%,rgba(0,0,0,.35)_0,transparent_45%)]"
          />
          <span className="relative text-2xl font-bold uppercase tracking-wider text-white/90 drop-shadow">{categoryLabel}</span>
        </div>
      )}
    </div>
  );
}
