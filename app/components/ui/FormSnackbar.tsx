import { useEffect, useState } from "react";

export interface SnackbarMessage {
  type: "success" | "error";
  message: string;
}

/**
 * The snackbar for an action's answer on the same page (a failed save does
 * not redirect, so the shell's flash does not apply). Closes with its button,
 * also without JavaScript (checkbox + :has), and by itself after a while.
 */
export function FormSnackbar({ snackbar }: { snackbar: SnackbarMessage | null | undefined }) {
  const [open, setOpen] = useState(Boolean(snackbar));
  useEffect(() => {
    setOpen(Boolean(snackbar));
    if (!snackbar) return;
    const timer = setTimeout(() => setOpen(false), snackbar.type === "error" ? 10_000 : 6_000);
    return () => clearTimeout(timer);
  }, [snackbar]);
  if (!snackbar || !open) return null;
  const error = snackbar.type === "error";
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-[70] flex justify-center px-4">
      <div
        role={error ? "alert" : "status"}
        data-snackbar={snackbar.type}
        className={[
          "pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-xl border px-4 py-3 shadow-lg has-checked:hidden",
          error ? "border-red-500/40 bg-red-950 text-red-50" : "border-primary-500/40 bg-primary-900 text-primary-50",
        ].join(" ")}
      >
        <span aria-hidden="true" className="mt-0.5 text-lg leading-none">
          {error ? "!" : "✓"}
        </span>
        <p className="flex-1 text-sm leading-5">{snackbar.message}</p>
        <input id="form-snackbar-cerrar" type="checkbox" className="peer sr-only" aria-label="Cerrar aviso" onChange={() => setOpen(false)} />
        <label
          htmlFor="form-snackbar-cerrar"
          aria-hidden="true"
          title="Cerrar"
          className="-m-1 cursor-pointer rounded p-1 text-lg leading-none opacity-80 hover:opacity-100"
        >
          ×
        </label>
      </div>
    </div>
  );
}
