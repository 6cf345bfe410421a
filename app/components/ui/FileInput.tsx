import { useEffect, useState, type InputHTMLAttributes } from "react";

/**
 * A file picker that speaks Spanish: the browser's own control reads "Choose File / No file chosen" in an English
 * browser, so the native input is kept (it submits the file, with or without JavaScript) but hidden visually and
 * reached through its label, drawn as the "Elegir archivo" button. With JavaScript the chosen file's name (or
 * "Ningún archivo elegido") is said next to it; without JavaScript the button alone is shown, since the page
 * could not follow the choice. Keyboard focus on the hidden input shows on the button.
 */
export function FileInput({ id, buttonLabel = "Elegir archivo", className = "", onChange, ...inputProps }: InputHTMLAttributes<HTMLInputElement> & { id: string; buttonLabel?: string }) {
  const [hydrated, setHydrated] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);
  useEffect(() => setHydrated(true), []);
  return (
    <div className={`flex flex-wrap items-center gap-3 ${className}`}>
      <input
        id={id}
        type="file"
        className="peer sr-only"
        onChange={(event) => {
          const files = event.currentTarget.files;
          setChosen(files?.length ? (files.length === 1 ? files[0].name : `${files.length} archivos`) : null);
          onChange?.(event);
        }}
        {...inputProps}
      />
      <label
        htmlFor={id}
        className="inline-flex cursor-pointer items-center rounded-lg border border-[var(--border)] bg-[var(--surface)] px-4 py-2.5 text-sm font-bold text-[var(--text)] hover:border-primary-500 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-primary-400"
      >
        {buttonLabel}
      </label>
      {hydrated ? (
        <span className="text-sm text-[var(--muted)]" aria-live="polite" data-testid={`${id}-elegido`}>
          {chosen ?? "Ningún archivo elegido"}
        </span>
      ) : null}
    </div>
  );
}
