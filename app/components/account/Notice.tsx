import type { ReactNode } from "react";

export type NoticeTone = "info" | "success" | "error";

const tones: Record<NoticeTone, string> = {
  info: "border-primary-600 bg-primary-50 dark:bg-primary-900/30",
  success: "border-primary-500 bg-primary-100 dark:bg-primary-900/50",
  error: "border-red-500 bg-red-50 text-red-900 dark:bg-red-950/40 dark:text-red-100",
};

/** A message inside the page (not floating): info, success or error. Errors are announced as alerts. */
export function Notice({ tone = "info", id, children }: { tone?: NoticeTone; id?: string; children: ReactNode }) {
  return (
    <div id={id} role={tone === "error" ? "alert" : "status"} className={`mb-4 rounded-lg border px-4 py-3 text-sm ${tones[tone]}`}>
      {children}
    </div>
  );
}

/** Form-level errors (what is not about one field), tied to the form with `aria-describedby`. */
export function FormErrors({ id, errors }: { id: string; errors?: string[] | null }) {
  const list = (errors ?? []).filter(Boolean);
  if (!list.length) return <div id={id} />;
  return (
    <Notice tone="error" id={id}>
      {list.length === 1 ? (
        list[0]
      ) : (
        <ul className="list-disc pl-4">
          {list.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </Notice>
  );
}
