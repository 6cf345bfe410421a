import type { Capabilities } from "./types";

/** Back-office paths (the spec's, under /organizacion). */
export const BO = {
  root: "/organizacion",
  summary: "/organizacion/resumen",
  create: "/organizacion/por-crear",
  detail: "/organizacion/detalle",
  events: "/organizacion/mis-eventos",
  createEvent: "/organizacion/evento/crear",
  editEvent: (slug: string) => `/organizacion/evento/editar/${slug}`,
  editTickets: (slug: string) => `/organizacion/evento/editar/tickets/${slug}`,
  ticketTypes: "/organizacion/tipos-de-ticket",
  addStock: "/organizacion/agregar-entradas",
  customFields: (slug: string) => `/organizacion/eventos/${slug}/campos-personalizados`,
  queue: (slug: string) => `/organizacion/eventos/${slug}/fila-virtual`,
  liveQr: (slug: string) => `/organizacion/eventos/${slug}/qr-dinamico`,
  pixel: "/organizacion/marketing-pixel",
  conditions: (eventId: string) => `/organizacion/condiciones-de-servicio/${eventId}`,
  congrats: "/organizacion/congrats-evento",
  publicEvent: (slug: string) => `/eventos/${slug}`,
  sales: "/organizacion/resumen-de-ventas",
  order: (orderId: string) => `/organizacion/resumen-de-ventas/${orderId}`,
  coupons: "/organizacion/cupones",
  invitations: "/organizacion/invitaciones",
  menu: "/organizacion/menu",
  giveaway: (slug: string) => `/organizacion/evento/enviar-tickets/${slug}`,
  bankTransfers: "/organizacion/transferencias-bancarias",
  bankAccounts: "/organizacion/cuentas-bancarias",
  withdrawals: "/organizacion/extracciones",
  reports: "/organizacion/informes",
  eventMetrics: "/organizacion/metricas-evento",
  newWithdrawal: "/organizacion/extracciones/crear",
  paymentMethods: "/organizacion/metodos-de-pago",
  staffPin: "/organizacion/staff-pin",
  door: (slug: string) => `/vivos/acreditacion/${slug}`,
  live: (slug: string) => `/vivos/${slug}`,
  accreditations: "/organizacion/acreditaciones",
  team: "/organizacion/operadores",
  qrGenerator: "/organizacion/generador-qr",
  qrDownload: "/organizacion/generador-qr/descargar",
  accreditationsCsv: "/organizacion/acreditaciones/exportar",
  promoterGroups: "/organizacion/relaciones-publicas/grupos",
  myGroup: "/organizacion/relaciones-publicas/mi-grupo",
  campaigns: "/organizacion/campanias-de-email",
  templates: "/organizacion/campanias-de-email/plantillas",
  newTemplate: "/organizacion/campanias-de-email/plantillas/crear",
  emailLog: "/organizacion/log-emails",
  audit: "/organizacion/registro-de-cambios",
  webhooks: "/organizacion/webhooks",
  seatMaps: "/organizacion/mapas",
  seatMap: (id: string) => `/organizacion/mapas/${id}`,
  seatMapExport: (id: string) => `/organizacion/mapas/${id}/exportar`,
} as const;

export type Capability = keyof Capabilities;

export interface BackofficeLink {
  to: string;
  label: string;
  capability: Capability;
}

/**
 * The shell's sections in groups (decision 116): a row of groups and, below it, the sections of the
 * current group from 600 px up; on a phone one "Secciones" list with every group. Each section is
 * shown only when the member's role allows it (the domain checks again anyway); `paths` are pages
 * under a group that are not sections themselves (an event's edit page belongs to "Eventos").
 */
export interface BackofficeGroup {
  label: string;
  links: BackofficeLink[];
  paths?: string[];
}

export const BACKOFFICE_GROUPS: BackofficeGroup[] = [
  {
    label: "Eventos",
    links: [
      { to: BO.summary, label: "Resumen", capability: "door:operate" },
      { to: BO.events, label: "Mis eventos", capability: "sales:read" },
      { to: BO.createEvent, label: "Crear evento", capability: "events:manage" },
      { to: BO.ticketTypes, label: "Tipos de entrada", capability: "sales:read" },
      { to: BO.addStock, label: "Agregar entradas", capability: "events:manage" },
      { to: BO.menu, label: "Menú", capability: "events:manage" },
      { to: BO.seatMaps, label: "Mapas de asientos", capability: "events:manage" },
      { to: BO.eventMetrics, label: "Métricas", capability: "sales:read" },
    ],
    paths: ["/organizacion/evento/", "/organizacion/eventos/", BO.congrats, "/organizacion/condiciones-de-servicio/", BO.create],
  },
  {
    label: "Ventas",
    links: [
      { to: BO.sales, label: "Ventas", capability: "sales:read" },
      { to: BO.coupons, label: "Cupones", capability: "events:manage" },
      { to: BO.invitations, label: "Invitaciones", capability: "events:manage" },
      { to: BO.bankTransfers, label: "Transferencias bancarias", capability: "sales:read" },
      { to: BO.myGroup, label: "Mis ventas de RRPP", capability: "promoters:sell" },
      { to: BO.promoterGroups, label: "Grupos de RRPP", capability: "promoters:manage" },
      { to: BO.reports, label: "Informes", capability: "sales:read" },
    ],
    paths: ["/organizacion/evento/enviar-tickets/", "/organizacion/relaciones-publicas/"],
  },
  {
    label: "Dinero",
    links: [
      { to: BO.bankAccounts, label: "Cuentas bancarias", capability: "money:manage" },
      { to: BO.withdrawals, label: "Extracciones", capability: "money:manage" },
      { to: BO.paymentMethods, label: "Métodos de pago", capability: "money:manage" },
    ],
  },
  {
    label: "Puerta",
    links: [
      { to: BO.accreditations, label: "Acreditaciones", capability: "sales:read" },
      { to: BO.staffPin, label: "PIN de puerta", capability: "door:pins" },
      { to: BO.qrGenerator, label: "Generador de QR", capability: "events:manage" },
    ],
  },
  {
    label: "Marketing",
    links: [
      { to: BO.campaigns, label: "Campañas de email", capability: "campaigns:manage" },
      { to: BO.templates, label: "Plantillas de email", capability: "campaigns:manage" },
      { to: BO.emailLog, label: "Emails enviados", capability: "emails:read" },
      { to: BO.pixel, label: "Píxel de marketing", capability: "pixel:manage" },
    ],
  },
  {
    label: "Organización",
    links: [
      { to: BO.detail, label: "Datos de la organización", capability: "organization:manage" },
      { to: BO.team, label: "Equipo", capability: "members:manage" },
      { to: BO.audit, label: "Registro de cambios", capability: "audit:read" },
      { to: BO.webhooks, label: "Webhooks", capability: "organization:manage" },
    ],
  },
];

/** Every section, in the order of the groups. */
export const BACKOFFICE_LINKS: BackofficeLink[] = BACKOFFICE_GROUPS.flatMap((group) => group.links);

/** The groups with the sections this member may open (groups left empty are dropped). */
export function visibleGroups(can: Capabilities): BackofficeGroup[] {
  return BACKOFFICE_GROUPS.map((group) => ({ ...group, links: group.links.filter((link) => can[link.capability]) })).filter((group) => group.links.length > 0);
}

/**
 * The group a path belongs to: the one with the longest section path or extra path that is the
 * path itself or a folder above it; the first group when none matches.
 */
export function groupOf(groups: BackofficeGroup[], pathname: string): BackofficeGroup | undefined {
  let best: { group: BackofficeGroup; length: number } | undefined;
  for (const group of groups) {
    for (const prefix of [...group.links.map((link) => link.to), ...(group.paths ?? [])]) {
      const matches = pathname === prefix || pathname.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`);
      if (matches && (!best || prefix.length > best.length)) best = { group, length: prefix.length };
    }
  }
  return best?.group ?? groups[0];
}

/**
 * Pages that read the global filters from their query. On any other page
 * (one about a given event, by its path) changing a selector goes to the
 * summary instead of mixing two events.
 */
export const FILTER_PAGES = new Set<string>([BO.summary, BO.events, BO.createEvent, BO.ticketTypes, BO.addStock, BO.pixel, BO.detail, BO.sales, BO.coupons, BO.invitations, BO.menu, BO.reports, BO.eventMetrics, BO.bankTransfers]);

export const ROLE_LABELS: Record<string, string> = {
  owner: "Dueño/a",
  admin: "Administrador/a",
  operator: "Operador/a",
  staff: "Staff",
  marketing: "Marketing",
  promoter: "RRPP",
  promoter_lead: "Líder de RRPP",
  "platform-admin": "Soporte de Tribuna",
};
