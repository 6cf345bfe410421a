import { DateTime } from "luxon";
import { eq } from "drizzle-orm";
import { TIME_ZONE } from "#common/dates";
import { DEFAULT_SERVICE_FEE_BPS } from "#server/events/events";
import { savePoster } from "#server/media/posters";
import type { Db } from "#server/db/client";
import type { DemoSale } from "./seed-sales";
import { bankAccounts, eventDates, events, memberships, organizations, ticketTypes } from "#server/db/schema";

type DemoTicket = {
  name: string;
  price: number; // pesos
  stock: number;
  /** How many the demo shows sold: written as that many tickets of real paid purchases (./seed-sales.ts). */
  sold?: number;
  description?: string;
  hidden?: boolean;
  presale?: boolean;
  accessCode?: string;
  paymentMethod?: "MercadoPagoAccount" | "BankAccount";
  maxPerOrder?: number;
};

type DemoEvent = {
  org: string;
  name: string;
  slug: string;
  category: string;
  description: string;
  venueName: string;
  venueAddress: string;
  city: string;
  province: string;
  days: number;
  hour: number;
  durationHours: number;
  minAge?: number;
  presaleCode?: string;
  extraDates?: number[];
  tickets: DemoTicket[];
};

export const DEMO_ORGANIZATIONS = [
  { name: "Producciones del Plata", slug: "producciones-del-plata", cuit: "30712345671", contactEmail: "hola@delplata.com.ar", description: "Recitales y fiestas en Buenos Aires desde 2012." },
  { name: "Cuyo Eventos", slug: "cuyo-eventos", cuit: "30716543214", contactEmail: "contacto@cuyoeventos.com.ar", description: "Festivales y vendimias en Mendoza y San Juan." },
  { name: "La Docta Cultura", slug: "la-docta-cultura", cuit: "33709876541", contactEmail: "info@ladocta.com.ar", description: "Teatro, stand-up y cultura en Córdoba." },
  { name: "Patagonia Live", slug: "patagonia-live", cuit: "30701122336", contactEmail: "hola@patagonialive.com.ar", description: "Shows al aire libre en Neuquén, Río Negro y Chubut." },
] as const;

const EVENTS: DemoEvent[] = [
  { org: "producciones-del-plata", name: "Fiesta Bresh", slug: "fiesta-bresh", category: "fiestas", description: "La fiesta más feliz del mundo vuelve a Palermo. Música de los 2000 hasta el amanecer.", venueName: "Niceto Club", venueAddress: "Niceto Vega 5510", city: "Buenos Aires", province: "AR-CF", days: 12, hour: 23, durationHours: 6, minAge: 18, tickets: [
    { name: "Preventa", price: 9000, stock: 150, presale: true },
    { name: "General", price: 12000, stock: 600, sold: 241 },
    { name: "Invitados RRPP", price: 0, stock: 40, hidden: true, accessCode: "AMIGOSBRESH", maxPerOrder: 2 },
  ], presaleCode: "BRESHPRE" },
  { org: "producciones-del-plata", name: "Tango en el Conventillo", slug: "tango-en-el-conventillo", category: "teatro", description: "Orquesta típica y parejas de baile en una noche de tango porteño.", venueName: "Centro Cultural San Telmo", venueAddress: "Defensa 1344", city: "Buenos Aires", province: "AR-CF", days: 5, hour: 21, durationHours: 3, extraDates: [12, 19], tickets: [
    { name: "Platea", price: 15000, stock: 120, sold: 37 },
    { name: "Mesa para dos con cena", price: 48000, stock: 20, description: "Incluye cena de tres pasos y una botella de vino." },
  ] },
  { org: "producciones-del-plata", name: "Stand-up en La Plata", slug: "stand-up-la-plata", category: "stand-up", description: "Cuatro comediantes, una noche. Risas garantizadas.", venueName: "Teatro Coliseo Podestá", venueAddress: "Calle 10 733", city: "La Plata", province: "AR-B", days: 20, hour: 21, durationHours: 2, tickets: [
    { name: "General", price: 8000, stock: 250, sold: 250 },
  ] },
  { org: "producciones-del-plata", name: "Feria de Vinos Naturales", slug: "feria-vinos-naturales", category: "gastronomia", description: "Más de 40 bodegas chicas y productores de vino natural. Entrada con copa de regalo.", venueName: "Galpón de Chacarita", venueAddress: "Av. Federico Lacroze 4181", city: "Buenos Aires", province: "AR-CF", days: 26, hour: 16, durationHours: 6, minAge: 18, tickets: [
    { name: "Entrada con copa", price: 18000, stock: 400, sold: 120 },
    { name: "Entrada por transferencia", price: 16500, stock: 100, paymentMethod: "BankAccount", description: "Pagás por transferencia bancaria y subís el comprobante." },
  ] },
  { org: "cuyo-eventos", name: "Festival de la Vendimia Joven", slug: "vendimia-joven", category: "festivales", description: "Dos días de música regional y rock en el Parque General San Martín.", venueName: "Anfiteatro Frank Romero Day", venueAddress: "Parque General San Martín", city: "Mendoza", province: "AR-M", days: 40, hour: 19, durationHours: 6, extraDates: [41], tickets: [
    { name: "Abono dos días", price: 35000, stock: 2000, sold: 730 },
    { name: "Campo un día", price: 22000, stock: 3000, sold: 410 },
  ] },
  { org: "cuyo-eventos", name: "Noche de Cuarteto Sanjuanina", slug: "cuarteto-san-juan", category: "recitales", description: "Los clásicos del cuarteto cordobés, en San Juan.", venueName: "Estadio Aldo Cantoni", venueAddress: "Av. Ignacio de la Roza 1300", city: "San Juan", province: "AR-J", days: 9, hour: 22, durationHours: 4, tickets: [
    { name: "Campo", price: 14000, stock: 1500, sold: 120 },
    { name: "Platea", price: 20000, stock: 600 },
  ] },
  { org: "la-docta-cultura", name: "La Docta Ríe", slug: "la-docta-rie", category: "stand-up", description: "El ciclo de stand-up más largo de Córdoba.", venueName: "Teatro Real", venueAddress: "San Jerónimo 66", city: "Córdoba", province: "AR-X", days: 3, hour: 21, durationHours: 2, extraDates: [10, 17, 24], tickets: [
    { name: "General", price: 7000, stock: 300, sold: 88 },
  ] },
  { org: "la-docta-cultura", name: "Obra: Esperando la carroza", slug: "esperando-la-carroza", category: "teatro", description: "El clásico de Jacobo Langsner, con elenco cordobés.", venueName: "Teatro del Libertador San Martín", venueAddress: "Av. Vélez Sarsfield 365", city: "Córdoba", province: "AR-X", days: 15, hour: 20, durationHours: 2, tickets: [
    { name: "Platea baja", price: 16000, stock: 400, sold: 95 },
    { name: "Paraíso", price: 6000, stock: 200 },
  ] },
  { org: "la-docta-cultura", name: "Encuentro de Bandas Infantiles", slug: "bandas-infantiles", category: "infantiles", description: "Una tarde de música para chicos y grandes. Menores de 3 años no pagan.", venueName: "Parque Sarmiento", venueAddress: "Av. Poeta Lugones y Deodoro Roca", city: "Córdoba", province: "AR-X", days: 7, hour: 16, durationHours: 3, tickets: [
    { name: "Entrada libre y gratuita", price: 0, stock: 800, sold: 312, maxPerOrder: 6 },
  ] },
  { org: "patagonia-live", name: "Rock en la Confluencia", slug: "rock-en-la-confluencia", category: "recitales", description: "Bandas de rock patagónico a orillas del río Limay.", venueName: "Paseo Costero", venueAddress: "Costanera del Limay", city: "Neuquén", province: "AR-Q", days: 30, hour: 18, durationHours: 7, tickets: [
    { name: "General", price: 18000, stock: 2500, sold: 900 },
    { name: "VIP con estacionamiento", price: 42000, stock: 150, sold: 60 },
  ] },
  { org: "patagonia-live", name: "Jazz al Lago", slug: "jazz-al-lago", category: "recitales", description: "Cuarteto de jazz frente al Nahuel Huapi, al atardecer.", venueName: "Puerto San Carlos", venueAddress: "Av. Juan Manuel de Rosas 200", city: "San Carlos de Bariloche", province: "AR-R", days: 18, hour: 19, durationHours: 3, tickets: [
    { name: "General", price: 22000, stock: 180, sold: 44 },
  ] },
  { org: "patagonia-live", name: "Maratón Costera Madryn", slug: "maraton-costera-madryn", category: "deportes", description: "21K y 10K por la costanera de Puerto Madryn. Kit de corredor incluido.", venueName: "Costanera de Puerto Madryn", venueAddress: "Av. Julio A. Roca y 9 de Julio", city: "Puerto Madryn", province: "AR-U", days: 45, hour: 8, durationHours: 5, tickets: [
    { name: "Inscripción 21K", price: 30000, stock: 500, sold: 140 },
    { name: "Inscripción 10K", price: 22000, stock: 800, sold: 260 },
  ] },
];

function at(days: number, hour: number) {
  return DateTime.now().setZone(TIME_ZONE).startOf("day").plus({ days }).set({ hour }).toJSDate();
}

/**
 * Demo catalogue: organizations and a dozen events around the country, relative to today, each with a poster drawn
 * here (server/media/posters.ts) and stored like an upload, at every width. Ticket types start with nothing sold;
 * what each shows as sold comes back as DemoSales for ./seed-sales.ts to write as purchases.
 */
export async function seedDemoEvents(db: Db, producerId: string | null): Promise<DemoSale[]> {
  const sales: DemoSale[] = [];
  const orgIds = new Map<string, string>();
  for (const org of DEMO_ORGANIZATIONS) {
    const [row] = await db.insert(organizations).values(org).onConflictDoNothing().returning();
    const id = row?.id ?? (await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.slug, org.slug)))[0].id;
    orgIds.set(org.slug, id);
    if (producerId && org.slug === "producciones-del-plata") {
      await db.insert(memberships).values({ organizationId: id, userId: producerId, role: "owner" }).onConflictDoNothing();
    }
    // Where buyers of its bank-transfer tickets (feria-vinos-naturales) transfer: a demo Banco Macro account.
    if (org.slug === "producciones-del-plata") {
      await db
        .insert(bankAccounts)
        .values({ organizationId: id, bankName: "Banco Macro", cbu: "2850590940090418135201", alias: "DELPLATA.ENTRADAS", holderName: org.name, holderCuit: org.cuit, forTicketTransfers: true })
        .onConflictDoNothing();
    }
  }
  const now = new Date();
  const posters: Promise<void>[] = [];
  for (const demo of EVENTS) {
    const [event] = await db
      .insert(events)
      .values({
        organizationId: orgIds.get(demo.org)!,
        name: demo.name,
        slug: demo.slug,
        category: demo.category,
        description: demo.description,
        venueName: demo.venueName,
        venueAddress: demo.venueAddress,
        city: demo.city,
        province: demo.province,
        minAge: demo.minAge ?? 0,
        presaleCode: demo.presaleCode ?? null,
        publishedAt: now,
        serviceConditionsAcceptedAt: now,
        serviceFeeBps: DEFAULT_SERVICE_FEE_BPS,
      })
      .onConflictDoNothing()
      .returning();
    if (!event) continue;
    const starts = [demo.days, ...(demo.extraDates ?? [])].map((days) => at(days, demo.hour));
    const dates = await db.insert(eventDates).values(
      starts.map((startsAt) => ({
        eventId: event.id,
        startsAt,
        endsAt: new Date(startsAt.getTime() + demo.durationHours * 3600_000),
        doorsAt: new Date(startsAt.getTime() - 3600_000),
      })),
    ).returning({ id: eventDates.id });
    // Drawn while the next events are written; an event whose poster fails keeps the category's gradient.
    posters.push(
      savePoster({ slug: demo.slug, name: demo.name, category: demo.category, dates: starts, venueName: demo.venueName, city: demo.city })
        .then(async (image) => void (await db.update(events).set({ imageUrl: image.url }).where(eq(events.id, event.id))))
        .catch((error: unknown) => console.warn(`No pudimos dibujar el afiche de ${demo.slug}:`, error)),
    );
    const types = await db.insert(ticketTypes).values(
      demo.tickets.map((t, i) => ({
        eventId: event.id,
        name: t.name,
        description: t.description ?? "",
        price: t.price * 100,
        stock: t.stock,
        sold: 0,
        hidden: t.hidden ?? false,
        presale: t.presale ?? false,
        accessCode: t.accessCode ?? null,
        paymentMethod: t.paymentMethod ?? "MercadoPagoAccount",
        maxPerOrder: t.maxPerOrder ?? 10,
        sortOrder: i,
      })),
    ).returning();
    demo.tickets.forEach((t, i) => {
      if (t.sold) sales.push({ event: { id: event.id, organizationId: event.organizationId, serviceFeeBps: event.serviceFeeBps ?? DEFAULT_SERVICE_FEE_BPS }, dateIds: dates.map((d) => d.id), ticket: { id: types[i].id, name: types[i].name, price: types[i].price, maxPerOrder: types[i].maxPerOrder }, qty: t.sold });
    });
  }
  await Promise.all(posters);
  return sales;
}
