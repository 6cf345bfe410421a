import { Link } from "@remix-run/react";
import { formatDateTime } from "#common/dates";
import { BACKOFFICE_LINKS, BO } from "./nav";
import { Card } from "./Page";
import { useBackofficeHref } from "./Shell";
import type { Capabilities } from "./types";

/** What app/lib/role-landing.server.ts sends for a role that does not read sales. */
export interface RoleLandingData {
  role: string | null;
  /** The events whose door this person can open (staff only), soonest first. */
  doors: { id: string; name: string; slug: string; startsAt: string | null }[];
}

/** What each such role does here, in the words of docs/team.md and docs/promoters.md. */
const ROLE_TEXT: Record<string, { title: string; text: string }> = {
  staff: {
    title: "Sos staff de puerta",
    text: "Acreditás a la gente en la puerta de los eventos y ves los ingresos en vivo. Las ventas y la configuración de los eventos las ven quienes administran la organización.",
  },
  marketing: {
    title: "Sos de marketing",
    text: "Armás las plantillas y las campañas de email, ves y reenviás los emails enviados y configurás el píxel de marketing de los eventos. Las ventas y la configuración de los eventos las ven quienes administran la organización.",
  },
  promoter: {
    title: "Sos RRPP",
    text: "Vendés entradas con tu link de RRPP y ves tus ventas por evento en Mis ventas de RRPP.",
  },
  promoter_lead: {
    title: "Sos líder de RRPP",
    text: "Vendés con tu link, sumás RRPP a tu grupo y ves las ventas de cada uno en tu grupo.",
  },
};

const FALLBACK = { title: "Tu lugar en esta organización", text: "Estas son las secciones que tu rol te deja abrir." };

const linkClass = "font-bold text-[var(--accent)] hover:underline";

/**
 * The landing of `/organizacion/resumen` for a role without the sales summary: what the role is for and the
 * links it can actually use (the sections its capabilities open; for the door staff, each event's door screen
 * and live view). Links only lead: every page checks the role again in server/.
 */
export function RoleLanding({ landing, can }: { landing: RoleLandingData; can: Capabilities }) {
  const href = useBackofficeHref();
  const { title, text } = (landing.role && ROLE_TEXT[landing.role]) || FALLBACK;
  const sections = BACKOFFICE_LINKS.filter((link) => link.to !== BO.summary && can[link.capability]);
  return (
    <div className="flex flex-col gap-6" data-testid="role-landing">
      <Card title={title}>
        <p className="text-[var(--muted)]">{text}</p>
        {sections.length ? (
          <ul className="mt-4 flex flex-col gap-2">
            {sections.map((link) => (
              <li key={link.to}>
                <Link to={href(link.to)} className={linkClass}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </Card>
      {can["door:operate"] ? (
        <Card title="Puerta de los eventos">
          {landing.doors.length ? (
            <ul className="divide-y divide-[var(--border)]">
              {landing.doors.map((event) => (
                <li key={event.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div className="min-w-0">
                    <p className="font-bold">{event.name}</p>
                    {event.startsAt ? <p className="text-sm text-[var(--muted)]">{formatDateTime(event.startsAt)}</p> : null}
                  </div>
                  <div className="flex flex-wrap gap-3 text-sm">
                    <a href={BO.door(event.slug)} className={linkClass}>
                      Acreditar en la puerta
                    </a>
                    <a href={BO.live(event.slug)} className={linkClass}>
                      Ingresos en vivo
                    </a>
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-[var(--muted)]">
              No hay eventos publicados con fechas por venir. Cuando haya uno, vas a ver acá el link a su puerta.
            </p>
          )}
        </Card>
      ) : null}
    </div>
  );
}
