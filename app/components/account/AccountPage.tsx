import type { ReactNode } from "react";

/** The frame every account page shares: a centred card with a title. */
export function AccountPage({
  title,
  description,
  children,
  wide = false,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <main className={`mx-auto w-full ${wide ? "max-w-2xl" : "max-w-md"} px-4 py-10`}>
      <section className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-6 shadow-sm sm:p-8" aria-labelledby="account-page-title">
        <h1 id="account-page-title" className="text-2xl font-bold">
          {title}
        </h1>
        {description ? <div className="mt-2 text-sm text-[var(--muted)]">{description}</div> : null}
        <div className="mt-6">{children}</div>
      </section>
    </main>
  );
}

/** Secondary links under a form ("¿Olvidaste tu contraseña?", "Creá tu cuenta"…). */
export function AccountLinks({ children }: { children: ReactNode }) {
  return <nav className="mt-6 flex flex-col gap-2 text-sm [&_a]:text-[var(--accent)] [&_a]:underline [&_a]:underline-offset-2">{children}</nav>;
}
