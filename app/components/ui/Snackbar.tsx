import { useEffect, useRef, useState } from "react";

/**
 * Snackbar: one short message at the bottom of the screen, success or error.
 *
 * An action sets a flash on its response (`withFlash` in
 * app/lib/flash.server.ts) and root renders it, with or without JavaScript.
 *
 * It closes with its button (a checkbox + label, so it works without
 * JavaScript) and, with JavaScript, by itself after a few seconds.
 */
export type SnackbarMessage = { type: "success" | "error"; message: string };
type Item = SnackbarMessage & { id: number };

/** The spec's messages (error catalogue), to the letter. */
export const SNACKBAR_MESSAGES = {
  genericError: "Upppsss... parece que hubo un error. Intentá en un rato",
  saveError: "Upppsss... parece que te faltó cargar algunos datos.",
  saveSuccess: "¡Todo genial! Guardamos tus datos",
} as const;

export const SNACKBAR_DURATION_MS = { success: 6000, error: 10000 } as const;

let sequence = 0;

/** Rendered once by root with the loader's flash. */
export function SnackbarHost({ flash }: { flash: SnackbarMessage | null }) {
  const [item, setItem] = useState<Item | null>(flash ? { ...flash, id: 0 } : null);
  const firstFlash = useRef(flash);

  // A new flash from the root loader (after a redirect or a revalidation).
  useEffect(() => {
    if (flash === firstFlash.current) return;
    firstFlash.current = flash;
    if (flash) {
      sequence += 1;
      setItem({ ...flash, id: sequence });
    }
  }, [flash]);

  useEffect(() => {
    if (!item) return;
    const timer = setTimeout(() => setItem(null), SNACKBAR_DURATION_MS[item.type]);
    return () => clearTimeout(timer);
  }, [item]);

  return (
    <div data-snackbar-host="" className="pointer-events-none fixed inset-x-0 bottom-4 z-[70] flex justify-center px-4" aria-live="polite">
      {item ? <Snackbar key={item.id} item={item} onClose={() => setItem(null)} /> : null}
    </div>
  );
}

function Snackbar({ item, onClose }: { item: Item; onClose: () => void }) {
  const closeId = `snackbar-cerrar-${item.id}`;
  const error = item.type === "error";
  return (
    <div
      role={error ? "alert" : "status"}
      data-snackbar={item.type}
      className={[
        "pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-xl border px-4 py-3 shadow-lg has-checked:hidden",
        error
          ? "border-red-500/40 bg-red-950 text-red-50"
          : "border-primary-500/40 bg-primary-900 text-primary-50",
      ].join(" ")}
    >
      <span aria-hidden="true" className="mt-0.5 text-lg leading-none">
        {error ? "!" : "✓"}
      </span>
      <p className="flex-1 text-sm leading-5">{item.message}</p>
      {/* Closing works without JavaScript: the checkbox hides the snackbar through CSS (:has). */}
      <input id={closeId} type="checkbox" className="peer sr-only" aria-label="Cerrar aviso" onChange={onClose} />
      <label
        htmlFor={closeId}
        aria-hidden="true"
        className="-m-1 cursor-pointer rounded p-1 text-lg leading-none opacity-80 hover:opacity-100 peer-focus-visible:outline-2 peer-focus-visible:outline-primary-300"
        title="Cerrar"
      >
        ×
      </label>
    </div>
  );
}
