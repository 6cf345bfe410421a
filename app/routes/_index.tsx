import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "Tribuna · Entradas para eventos en Argentina" }];

export default function Home() {
  return (
    <main className="mx-auto max-w-3xl p-6">
      <h1 className="text-3xl font-bold text-primary-400">Tribuna</h1>
      <p className="mt-2 text-[var(--muted)]">Muy pronto vas a encontrar acá los próximos eventos de todo el país.</p>
      <Link to="/cuenta/registro" className="mt-4 inline-block rounded-lg bg-primary-500 px-4 py-2 font-bold text-black">
        Crear cuenta
      </Link>
    </main>
  );
}
