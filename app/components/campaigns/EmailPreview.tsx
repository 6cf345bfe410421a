/**
 * What stands in for an inline image (`cid:`, the tickets' QR) in a preview of a logged email: the image is an
 * attachment a page cannot load, and the QR is a ticket that gets in, which the log never shows (decision 152).
 * A data: image, which the pages' Content-Security-Policy already allows (`img-src … data:`), so the preview
 * needs no wider policy (decision 164).
 */
export const INLINE_IMAGE_PLACEHOLDER = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240"><rect width="240" height="240" fill="#f4f4f5" stroke="#a1a1aa" stroke-dasharray="8 6" stroke-width="4"/><text x="120" y="112" font-family="Arial,sans-serif" font-size="18" text-anchor="middle" fill="#3f3f46">Código QR</text><text x="120" y="140" font-family="Arial,sans-serif" font-size="14" text-anchor="middle" fill="#52525b">no se muestra en el registro</text></svg>',
)}`;

/** The email's HTML as the preview shows it: every `cid:` image replaced by INLINE_IMAGE_PLACEHOLDER. */
export function previewHtml(html: string): string {
  return html.replace(/(\ssrc\s*=\s*)(["'])cid:[^"']*\2/gi, (_whole, attribute: string, quote: string) => `${attribute}${quote}${INLINE_IMAGE_PLACEHOLDER}${quote}`);
}

/**
 * An email as a phone shows it: its HTML in a sandboxed iframe (no scripts,
 * no forms, no same-origin access) 390 px wide, scrolling inside the page
 * on narrower screens.
 */
export function EmailPreview({ html, title }: { html: string; title: string }) {
  return (
    <div className="max-w-full overflow-x-auto">
      <iframe title={title} srcDoc={html} sandbox="" className="block h-[560px] w-[390px] max-w-none rounded-xl border border-[var(--border)] bg-white" />
    </div>
  );
}
