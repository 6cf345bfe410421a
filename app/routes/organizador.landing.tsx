import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { applyPublicCache, cacheHeadersFrom } from "#app/lib/cache.server";
import { buttonClasses } from "#app/components/ui/Button";

const CREATE_ORGANIZATION_PATH = "/organizacion/por-crear";

export const meta: MetaFunction = () => [
  { title: "Vendé entradas con Tribuna · Para organizadores" },
  {
    name: "description",
    content:
      "Publicá tu evento, cobrá con Mercado Pago o transferencia, controlá el acceso con QR y vendé con tus RRPP. 10 % de cargo de servicio que paga quien compra.",
  },
];

/** Static page: cacheable for anonymous visitors. */
export function loader({ request }: LoaderFunctionArgs) {
  return data(null, { headers: applyPublicCache(request, new Headers()) });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => cacheHeadersFrom(loaderHeaders);

const BENEFITS = [
  {
    title: "Cobro con Mercado Pago y transferencia",
    text: "Cada venta con tarjeta o dinero en cuenta entra a tu cuenta de Mercado Pago. Si querés, aceptás también transferencias bancarias y aprobás los comprobantes desde el panel.",
  },
  {
    title: "QR y control de acceso",
    text: "Cada entrada lleva un código QR único. Tu equipo lo escanea con la cámara del celular, con un PIN para el staff y sin instalar nada, y sigue acreditando aunque se corte la señal. Una entrada no entra dos veces.",
  },
  {
    title: "RRPP con links propios",
    text: "Cada relacionista público comparte su link (tribuna.ar/eventos/tu-evento/su-nick) y la noche del evento ves cuántas entradas vendió cada link y cuántas personas entraron con ellas.",
  },
  {
    title: "Cupones de descuento",
    text: "Creá cupones por porcentaje o monto fijo, para algunas entradas, con límite de usos y fechas de validez.",
  },
  {
    title: "Reportes de ventas",
    text: "Las ventas de hoy, de la semana y totales en el panel; ventas, asistentes, cupones y movimientos para bajar en CSV o Excel; y, la noche del evento, el ingreso en vivo por tipo de entrada, por puerta y por RRPP.",
  },
  {
    title: "Invitaciones",
    text: "Mandá entradas sin cargo a invitados, prensa o sponsors de a una o de a miles con una planilla: llegan por email con su QR y entran por la puerta como cualquier entrada.",
  },
  {
    title: "Menú y barra",
    text: "Tu público paga bebidas y comidas desde el celular y las retira en la barra con un QR que se canjea una sola vez, con el mismo PIN de la puerta.",
  },
  {
    title: "Tu plata, clara",
    text: "Ves lo disponible y lo que se libera después de cada evento, y pedís la extracción a tu cuenta bancaria desde el panel.",
  },
  {
    title: "Pensado para el celular",
    text: "Tus compradores eligen y pagan desde el teléfono, aunque tengan poca señal: las páginas son livianas y funcionan hasta sin JavaScript.",
  },
] as const;

const STEPS = [
  { title: "Creá tu organización", text: "Con el nombre, el CUIT y un email de contacto. Te lleva un par de minutos." },
  { title: "Cargá tu evento", text: "Fechas, lugar, tipos de entrada, precios, stock, preventa y entradas ocultas con código." },
  { title: "Compartí el link y vendé", text: "Tu evento aparece en Tribuna y en tu página de organizador. Sumá a tus RRPP." },
  { title: "Controlá el acceso", text: "El día del evento escaneás los QR en la puerta y seguís las entradas en vivo." },
] as const;

export default function OrganizerLanding() {
  return (
    <main className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6 sm:py-12">
      <section aria-labelledby="landing-titulo" className="flex flex-col items-start gap-4">
        <p className="text-sm font-bold tracking-widest text-secondary-500">PARA ORGANIZADORES</p>
        <h1 id="landing-titulo" className="text-3xl font-bold leading-tight sm:text-5xl">
          Vendé las entradas de tu evento con Tribuna
        </h1>
        <p className="max-w-2xl text-lg text-[var(--muted)]">
          Publicá tu evento en minutos, cobrá con Mercado Pago o transferencia, controlá el acceso con QR y hacé crecer tus
          ventas con tus RRPP.
        </p>
        <div className="flex flex-wrap gap-3">
          <Link to={CREATE_ORGANIZATION_PATH} className={buttonClasses("primary", "min-h-12 px-6 text-base")}>
            Crear mi organización
          </Link>
          <Link to="/" className={buttonClasses("secondary", "min-h-12 px-6 text-base")}>
            Ver eventos publicados
          </Link>
        </div>
      </section>

      <section aria-labelledby="cargo" className="mt-10 rounded-2xl border border-primary-500/50 bg-primary-500/10 p-5 sm:p-6">
        <h2 id="cargo" className="text-xl font-bold">
          Publicar es gratis
        </h2>
        <p className="mt-2 text-lg">
          <strong>10 % de cargo de servicio que paga quien compra</strong>, sumado al precio de cada entrada. El precio que vos
          ponés no cambia.
        </p>
        <p className="mt-2 text-sm text-[var(--muted)]">
          Las entradas gratuitas no tienen cargo. Las comisiones de Mercado Pago por cobrar en tu cuenta son las de tu propia cuenta.
        </p>
      </section>

      <section aria-labelledby="beneficios" className="mt-12">
        <h2 id="beneficios" className="text-2xl font-bold">
          Todo lo que necesitás para vender
        </h2>
        <ul className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {BENEFITS.map((b) => (
            <li key={b.title} className="rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4">
              <h3 className="font-bold">{b.title}</h3>
              <p className="mt-1 text-sm text-[var(--muted)]">{b.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="pasos" className="mt-12">
        <h2 id="pasos" className="text-2xl font-bold">
          Cómo empezar
        </h2>
        <ol className="mt-5 grid gap-4 sm:grid-cols-2">
          {STEPS.map((step, index) => (
            <li key={step.title} className="flex gap-3">
              <span
                aria-hidden="true"
                className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-secondary-600 font-bold text-white"
              >
                {index + 1}
              </span>
              <div>
                <h3 className="font-bold">{step.title}</h3>
                <p className="text-sm text-[var(--muted)]">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="empezar" className="mt-12 flex flex-col items-start gap-3 rounded-2xl bg-[var(--surface)] p-5 sm:p-8">
        <h2 id="empezar" className="text-2xl font-bold">
          ¿Listo para tu próxima fecha?
        </h2>
        <p className="text-[var(--muted)]">
          Necesitás una cuenta en Tribuna, el CUIT de tu organización y una cuenta de Mercado Pago para cobrar.
        </p>
        <Link to={CREATE_ORGANIZATION_PATH} className={buttonClasses("primary", "min-h-12 px-6 text-base")}>
          Crear mi organización
        </Link>
        <p className="text-sm text-[var(--muted)]">
          ¿Dudas? Escribinos a{" "}
          <a href="mailto:ayuda@tribuna.ar" className="underline">
            ayuda@tribuna.ar
          </a>
          .
        </p>
      </section>
    </main>
  );
}
