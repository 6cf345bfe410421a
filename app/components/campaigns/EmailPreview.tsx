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
