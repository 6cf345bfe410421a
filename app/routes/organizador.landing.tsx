import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { applyPublicCache, cacheHeadersFrom } from "#app/lib/cache.server";
import { buttonClasses } from "#app/components/ui/Button";
import { EventImage } from "#app/components/events/EventImage";

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

/**
 * What Tribuna does for an organizer. Every line is something the product does today (each was checked against the
 * code: payments and their two destinations, bank transfers, the door, RRPP links and metrics, coupons, reports and
 * live numbers, invitations, the menu, withdrawals, email campaigns, the team): nothing here is a plan.
 */
const BENEFITS = [
  {
    title: "Cobrá con Mercado Pago",
    text: "Tarjetas y dinero en cuenta. Conectás tu cuenta de Mercado Pago y cada venta entra ahí; si no la conectás, cobra Tribuna y retirás el saldo a tu banco.",
  },
  {
    title: "Transferencias con comprobante",
    text: "Si querés, también vendés por transferencia bancaria: quien compra sube el comprobante y vos lo aprobás desde el panel.",
  },
  {
    title: "QR y control de acceso",
    text: "Cada entrada lleva un QR único. Tu equipo lo escanea con la cámara del celular, con un PIN y sin instalar nada, y sigue acreditando aunque se corte la señal. Una entrada no entra dos veces.",
  },
  {
    title: "RRPP con links propios",
    text: "Cada relacionista público comparte su link (tribuna.ar/eventos/tu-evento/su-nick) y ves cuántas entradas vendió cada uno y cuántas personas entraron con ellas.",
  },
  {
    title: "Cupones de descuento",
    text: "Por porcentaje o monto fijo, para algunas entradas, con límite de usos y fechas de validez.",
  },
  {
    title: "Ventas y números en vivo",
    text: "Las ventas de hoy, de la semana y totales en el panel; ventas, asistentes, cupones y movimientos en CSV o Excel; y la noche del evento, el ingreso en vivo por tipo de entrada, por puerta y por RRPP.",
  },
  {
    title: "Invitaciones",
    text: "Mandá entradas sin cargo a invitados, prensa o sponsors de a una o de a miles con una planilla: llegan por email con su QR y entran como cualquier entrada.",
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
    title: "Campañas de email",
    text: "Escribile a quienes compraron en tus eventos: armás el correo, lo probás y lo programás. Cada uno trae su link para darse de baja.",
  },
  {
    title: "Tu equipo, con su rol",
    text: "Sumá a tu socio, a marketing o a quien controla la puerta: cada persona entra con su cuenta y ve solo lo que le toca.",
  },
  {
    title: "Pensado para el celular",
    text: "Tus compradores eligen y pagan desde el teléfono, aunque tengan poca señal: las páginas son livianas y funcionan hasta sin JavaScript.",
  },
] as const;

const STEPS = [
  { title: "Creá tu organización", text: "Con el nombre, el CUIT y un email de contacto. Te lleva un par de minutos." },
  { title: "Cargá tu evento", text: "Fechas, lugar, flyer, tipos de entrada, precios, stock, preventa y entradas ocultas con código." },
  { title: "Compartí el link y vendé", text: "Tu evento aparece en Tribuna y en tu página de organizador. Sumá a tus RRPP." },
  { title: "Controlá el acceso", text: "El día del evento escaneás los QR en la puerta y seguís los ingresos en vivo." },
] as const;

/** A picture of what a buyer sees (decoration: hidden from assistive technology, nothing to click). */
function StorefrontPreview() {
  return (
    <div aria-hidden="true" className="pointer-events-none w-full max-w-sm select-none justify-self-center">
      <div className="overflow-hidden rounded-2xl border border-[var(--border)] bg-[var(--surface)] shadow-2xl shadow-black/30">
        <EventImage imageUrl={null} alt="" category="recitales" categoryLabel="Tu evento" />
        <div className="flex flex-col gap-1.5 p-4">
          <p className="text-xs font-bold uppercase tracking-wider text-[var(--muted)]">Destacado · Recitales</p>
          <p className="text-xl font-bold">Tu próxima fecha</p>
          <p className="text-sm font-bold text-[var(--accent)]">Sábado 20 de diciembre · 21:00</p>
          <p className="text-sm">Tu lugar · Tu ciudad</p>
          <div className="mt-2 flex items-center justify-between gap-3">
            <p className="font-bold">Desde $ 15.000,00</p>
            <span className="inline-flex min-h-10 items-center rounded-lg bg-primary-500 px-4 text-sm font-bold text-black">Comprá tu entrada</span>
          </div>
        </div>
      </div>
    </div>
  );
}

export default function OrganizerLanding() {
  return (
    <main className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
      <section aria-labelledby="landing-titulo" className="grid items-center gap-10 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="flex flex-col items-start gap-4">
          <p className="text-sm font-bold uppercase tracking-widest text-[var(--muted)]">Para organizadores</p>
          <h1 id="landing-titulo" className="text-3xl font-bold leading-tight sm:text-5xl">
            Vendé las entradas de tu evento con Tribuna
          </h1>
          <p className="max-w-2xl text-lg text-[var(--muted)]">
            Publicá tu evento en minutos, cobrá con Mercado Pago o transferencia, controlá el acceso con QR y hacé crecer tus ventas con
            tus RRPP.
          </p>
          <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
            <Link to={CREATE_ORGANIZATION_PATH} className={buttonClasses("primary", "min-h-12 px-6 text-base")}>
              Crear mi organización
            </Link>
            <Link to="/" className={buttonClasses("secondary", "min-h-12 px-6 text-base")}>
              Ver eventos publicados
            </Link>
          </div>
        </div>
        <StorefrontPreview />
      </section>

      <section aria-labelledby="cargo" className="mt-12 grid gap-4 rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-5 sm:grid-cols-[auto_1fr] sm:items-center sm:gap-8 sm:p-8">
        <p aria-hidden="true" className="text-5xl font-bold text-[var(--accent)] sm:text-6xl">
          10 %
        </p>
        <div>
          <h2 id="cargo" className="text-xl font-bold">
            Publicar es gratis
          </h2>
          <p className="mt-1 text-lg">
            <strong>10 % de cargo de servicio que paga quien compra</strong>, sumado al precio de cada entrada. El precio que vos ponés no
            cambia.
          </p>
          <p className="mt-2 text-sm text-[var(--muted)]">
            Las entradas gratuitas no tienen cargo. Si cobrás en tu cuenta de Mercado Pago, sus comisiones son las de tu cuenta.
          </p>
        </div>
      </section>

      <section aria-labelledby="beneficios" className="mt-14">
        <h2 id="beneficios" className="text-2xl font-bold sm:text-3xl">
          Todo lo que necesitás para vender
        </h2>
        <ul className="mt-6 grid gap-3 sm:grid-cols-2 sm:gap-4 lg:grid-cols-3">
          {BENEFITS.map((b) => (
            <li key={b.title} className="rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4 sm:p-5">
              <span aria-hidden="true" className="mb-3 block h-1 w-10 rounded-full bg-primary-500" />
              <h3 className="font-bold">{b.title}</h3>
              <p className="mt-1 text-sm text-[var(--muted)]">{b.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="pasos" className="mt-14">
        <h2 id="pasos" className="text-2xl font-bold sm:text-3xl">
          Cómo empezar
        </h2>
        <ol className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map((step, index) => (
            <li key={step.title} className="flex gap-3 lg:flex-col">
              <span aria-hidden="true" className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-primary-500 font-bold text-black">
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

      <section aria-labelledby="empezar" className="mt-14 flex flex-col items-start gap-3 rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-5 sm:p-8">
        <h2 id="empezar" className="text-2xl font-bold">
          ¿Listo para tu próxima fecha?
        </h2>
        <p className="text-[var(--muted)]">
          Necesitás una cuenta en Tribuna y el CUIT de tu organización. Para cobrar en tu propia cuenta, conectás tu Mercado Pago cuando
          quieras.
        </p>
        <Link to={CREATE_ORGANIZATION_PATH} className={buttonClasses("primary", "min-h-12 w-full px-6 text-base sm:w-auto")}>
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
