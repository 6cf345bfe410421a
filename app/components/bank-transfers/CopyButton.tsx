import { useEffect, useState } from "react";

/**
 * "Copiar" next to a value that is already plain, selectable text: the
 * button only appears once JavaScript runs (without it, select and copy).
 */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setReady(true), []);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  if (!ready) return null;
  return (
    <button
      type="button"
      className="shrink-0 rounded-md border border-[var(--border)] px-2 py-1 text-xs font-bold hover:border-primary-500"
      aria-label={`Copiar ${label}`}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
        } catch {
          setCopied(false);
        }
      }}
    >
      <span aria-live="polite">{copied ? "¡Copiado!" : "Copiar"}</span>
    </button>
  );
}
