/**
 * Campaign rules both sides need (docs/campaigns.md): the template
 * variables, the check that refuses unknown ones, and the Spanish words the
 * pages show for statuses, audiences and the kinds of email in the log.
 */

/** The variables a template may use, with what they become. */
export const TEMPLATE_VARIABLES = [
  { name: "nombre", help: "el nombre de quien lo recibe (o «hola» sin nombre)" },
  { name: "evento", help: "el nombre del evento de la campaña" },
  { name: "fecha", help: "la próxima fecha del evento, en hora de Buenos Aires" },
  { name: "lugar", help: "el lugar del evento" },
  { name: "link_evento", help: "el link a la página del evento" },
  { name: "organizacion", help: "el nombre de tu organización" },
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number]["name"];

/** Variables that only make sense when the campaign is about an event. */
export const EVENT_VARIABLES: readonly TemplateVariable[] = ["evento", "fecha", "lugar", "link_evento"];

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const KNOWN = new Set<string>(TEMPLATE_VARIABLES.map((v) => v.name));

export const VARIABLE_LIST = TEMPLATE_VARIABLES.map((v) => `{{${v.name}}}`).join(", ");

/** The variables a text uses, in order of first use. */
export function variablesIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(VARIABLE)) if (!found.includes(match[1])) found.push(match[1]);
  return found;
}

/** The message for a text with variables we do not know (null when all are known). */
export function unknownVariablesMessage(text: string): string | null {
  const unknown = variablesIn(text).filter((name) => !KNOWN.has(name));
  if (!unknown.length) return null;
  const names = unknown.map((n) => `{{${n}}}`).join(", ");
  return `${unknown.length === 1 ? `No conocemos la variable ${names}` : `No conocemos las variables ${names}`}. Podés usar: ${VARIABLE_LIST}.`;
}

export const TEMPLATE_LIMITS = { name: 80, subject: 150, body: 20_000 } as const;

export const CAMPAIGN_STATUS_LABELS: Record<string, string> = {
  draft: "Borrador",
  scheduled: "Programada",
  sending: "Enviando",
  done: "Enviada",
  cancelled: "Cancelada",
};

export const AUDIENCE_LABELS: Record<string, string> = {
  event: "Compradores del evento",
  event_date: "Compradores de una fecha",
  ticket_type: "Compradores de un tipo de entrada",
  organization: "Todos tus compradores",
  promoters: "Tus RRPP",
};

/** The kinds of email in the log, in words (an unknown kind shows as is). */
export const EMAIL_KIND_LABELS: Record<string, string> = {
  tickets: "Entradas",
  "ticket-transfer": "Entrada enviada a otra persona",
  "ticket-transfer-notice": "Aviso de entrada enviada",
  "refund-requested": "Devolución pedida",
  "refund-approved": "Devolución aprobada",
  "refund-rejected": "Devolución rechazada",
  "refund-transferred": "Devolución transferida",
  "payment-refunded": "Pago devuelto",
  "payment-charged-back": "Contracargo",
  "bank-transfer-rejected": "Transferencia rechazada",
  "bank-transfer": "Transferencia bancaria",
  withdrawal: "Extracción",
  "team-invitation": "Invitación al equipo",
  campaign: "Campaña",
  "campaign-test": "Prueba de campaña",
  "sign-in-link": "Link para ingresar",
  "recovery-code": "Código de recuperación",
  "email-verification": "Confirmación de email",
  invoice: "Factura de Tribuna",
  "credit-note": "Nota de crédito de Tribuna",
};

export function emailKindLabel(kind: string): string {
  return EMAIL_KIND_LABELS[kind] ?? kind;
}

export const EMAIL_STATUS_LABELS: Record<string, string> = {
  logged: "Registrado",
  sent: "Enviado",
  failed: "Falló",
};

/** The public unsubscribe page; the token is signed (server/campaigns/unsubscribe.ts). */
export const unsubscribePath = (token: string) => `/correos/baja/${token}`;
