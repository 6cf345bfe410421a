import { Children, useEffect, useRef, type ReactNode } from "react";

/**
 * Where a form's result or errors appear: at the top of the page, so that without JavaScript (a new page, read
 * from the top) they are the first thing seen; with JavaScript the region takes the focus and scrolls into view
 * every time `reply` changes (a new submit), so on a phone the answer is never below the fold. Screen readers
 * read it as it gets the focus. Renders nothing without children.
 */
export function ResultRegion({ reply, label, children, className = "" }: { reply: unknown; label: string; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const region = ref.current;
    if (!reply || !region) return;
    region.focus({ preventScroll: true });
    const reduce = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    region.scrollIntoView({ block: "start", behavior: reduce ? "auto" : "smooth" });
  }, [reply]);
  if (Children.toArray(children).length === 0) return null;
  return (
    <div ref={ref} tabIndex={-1} role="region" aria-label={label} data-testid="resultado" className={`scroll-mt-24 rounded-2xl focus:outline-none focus-visible:outline-2 focus-visible:outline-primary-400 ${className}`}>
      {children}
    </div>
  );
}
