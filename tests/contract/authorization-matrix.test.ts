import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { getNamedType, isLeafType, isNonNullType, isObjectType, type GraphQLField, type GraphQLObjectType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCbu } from "#common/cbu";
import { doorPinOf, rotateDoorPin, unlockDoor } from "#server/door/access";
import { getDb } from "#server/db/client";
import { invoices, memberships, waitlistEntries, waitlistOffers } from "#server/db/schema";
import { schema } from "#server/graphql/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { actorFor, createTestUser, ctxAs, sessionCookiesFor, withSecondFactor } from "#tests/support/context";
import { createEventWithReleasedSales, createProducer, createPublishedEvent, createTransferAccount, makePromoter } from "#tests/support/factories";
import { gql } from "#tests/support/graphql";
import { enrolSecondFactor } from "#tests/support/two-factor";
import { randomTag } from "#tests/support/random";
import { formRequest, getRequest, run, type RouteResult } from "#tests/support/remix";
import { realPdf } from "#tests/support/images";
import { throwawayPassCertificates } from "#tests/support/wallet";

/**
 * The authorization matrix (decision 117): every route module with a loader or an
 * action (found in app/routes as flatRoutes finds them) and every GraphQL
 * query, mutation and subscription field, × every kind of actor. What each
 * cell must answer is read from docs/authorization.md (its two tables are the
 * one source: the rules, and which rule each operation follows), so a new
 * route or operation without a row there fails here. Every call points at
 * organization A's real rows; every refusal must carry none of A's data and
 * leave the database as it was.
 */

// Both wallets set up (docs/wallet.md), so their routes answer by who may read the purchase, not "not available".
// Nothing here runs the job queue: no Google or APNs call leaves the process.
const walletCerts = throwawayPassCertificates();
Object.assign(process.env, {
  APPLE_PASS_TEAM_ID: "ABCDE12345",
  APPLE_PASS_TYPE_ID: "pass.ar.tribuna.matrix",
  APPLE_PASS_SIGNER_CERT: walletCerts.signerCert,
  APPLE_PASS_SIGNER_KEY: walletCerts.signerKey,
  APPLE_PASS_SIGNER_KEY_PASSPHRASE: walletCerts.passphrase,
  APPLE_PASS_WWDR_CERT: walletCerts.wwdr,
  GOOGLE_WALLET_ISSUER_ID: "3388000000022299999",
  GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL: "wallet@tribuna-matrix.iam.gserviceaccount.com",
  GOOGLE_WALLET_PRIVATE_KEY: generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
});

const ROOT = path.resolve(__dirname, "../..");
const DOC = path.join(ROOT, "docs/authorization.md");
const ROUTES_DIR = path.join(ROOT, "app/routes");
const DISCOVER = process.env.AUTHZ_DISCOVER === "1";

const ACTORS = ["anonymous", "buyer", "producerA", "producerB", "operator", "staffPin", "promoter", "promoterLead", "marketing", "platformAdmin", "adminWithout2fa"] as const;
type ActorName = (typeof ACTORS)[number];
/** ✓ allowed · ∅ allowed, with none of A's data · sesión: refused as not signed in · 2FA: refused until the second factor is on and proved · 403: forbidden · 404: not found (or concealed). */
const OUTCOMES = ["✓", "∅", "sesión", "2FA", "403", "404"] as const;
/** The rules table's header: one column per actor, in ACTORS' order. */
const RULES_HEADER = ["regla", "anónimo", "comprador", "productor A", "productor B", "operador", "staff con PIN", "RRPP", "líder RRPP", "marketing", "admin de Tribuna", "admin A sin 2FA"];
type Outcome = (typeof OUTCOMES)[number];

// ───────────────────────── The doc's tables ─────────────────────────

function tableAfter(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(heading);
  if (start < 0) throw new Error(`docs/authorization.md has no "${heading}"`);
  const lines = markdown.slice(start).split("\n").slice(1);
  const first = lines.findIndex((l) => l.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith("|")) break;
    rows.push(line.split("|").slice(1, -1).map((c) => c.trim()));
  }
  return rows;
}

function readDoc() {
  const markdown = fs.readFileSync(DOC, "utf8");
  const rules = new Map<string, Record<ActorName, Outcome>>();
  const [header, , ...ruleRows] = tableAfter(markdown, "## Reglas");
  if (header.join("|") !== RULES_HEADER.join("|")) throw new Error(`docs/authorization.md: the rules' columns must be ${RULES_HEADER.join(" | ")}`);
  for (const [name, ...cells] of ruleRows) {
    if (cells.length !== ACTORS.length) throw new Error(`rule ${name}: ${cells.length} cells`);
    const unknown = cells.filter((c) => !(OUTCOMES as readonly string[]).includes(c));
    if (unknown.length) throw new Error(`rule ${name}: unknown outcomes ${unknown.join(", ")}`);
    rules.set(name.replace(/`/g, ""), Object.fromEntries(ACTORS.map((a, i) => [a, cells[i] as Outcome])) as Record<ActorName, Outcome>);
  }
  const operations = new Map<string, string>();
  for (const [op, rule] of tableAfter(markdown, "## Operaciones").slice(2)) {
    const name = op.replace(/`/g, "");
    if (operations.has(name)) throw new Error(`docs/authorization.md: ${name} has two rows`);
    operations.set(name, rule.replace(/`/g, ""));
  }
  return { rules, operations };
}

// ───────────────────────── What exists ─────────────────────────

/** The route modules flatRoutes serves (app/routes.ts ignores __*, *.test.* and *.server.*). */
function routeFiles(): string[] {
  return fs
    .readdirSync(ROUTES_DIR)
    .filter((f) => /\.(tsx?|jsx?)$/.test(f) && !f.startsWith("__") && !/\.test\./.test(f) && !/\.server\./.test(f))
    .sort();
}

const routeModules = import.meta.glob<Record<string, unknown>>(["/app/routes/*.ts", "/app/routes/*.tsx", "!/app/routes/*.test.*", "!/app/routes/*.server.*", "!/app/routes/__*"]);

async function routeOperations(): Promise<{ name: string; file: string; kind: "loader" | "action"; fn: (args: unknown) => unknown }[]> {
  const out = [];
  for (const file of routeFiles()) {
    const mod = await routeModules[`/app/routes/${file}`]();
    const id = file.replace(/\.(tsx?|jsx?)$/, "");
    for (const kind of ["loader", "action"] as const) if (typeof mod[kind] === "function") out.push({ name: `ruta ${id} ${kind}`, file: id, kind, fn: mod[kind] as (args: unknown) => unknown });
  }
  return out;
}

function graphqlOperations(): { name: string; type: "query" | "mutation" | "subscription"; field: GraphQLField<unknown, unknown> }[] {
  const out = [];
  for (const [type, root] of [["query", schema.getQueryType()], ["mutation", schema.getMutationType()], ["subscription", schema.getSubscriptionType()]] as const) {
    for (const field of Object.values(root?.getFields() ?? {})) out.push({ name: `${type} ${field.name}`, type, field });
  }
  return out;
}

/** The URL of a flat route file: `organizacion.cupones_.$couponId` → /organizacion/cupones/{couponId}. */
function routePath(id: string, params: Record<string, string>): string {
  const segments = id.split(".").flatMap((segment) => {
    if (segment === "_index" || segment.startsWith("_")) return [];
    const clean = segment.replace(/_$/, "");
    if (clean === "$") return [params["*"]];
    if (clean.startsWith("$")) return [params[clean.slice(1)]];
    return [clean];
  });
  return "/" + segments.join("/");
}

/** loader / action, read from the module's source (describe.each needs them before any import). */
function exportsOf(file: string): ("loader" | "action")[] {
  const source = fs.readFileSync(path.join(ROUTES_DIR, file), "utf8");
  return (["loader", "action"] as const).filter((kind) => new RegExp(`export\\s+(async\\s+)?function\\s+${kind}\\b|export\\s+const\\s+${kind}\\b|export\\s*\\{[^}]*\\b${kind}\\b`).test(source));
}

function routeParams(id: string, values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const segment of id.split(".")) {
    const clean = segment.replace(/_$/, "");
    if (clean === "$") out["*"] = values["*"];
    else if (clean.startsWith("$")) out[clean.slice(1)] = values[clean.slice(1)] ?? values.default;
  }
  return out;
}

// ───────────────────────── Fixtures ─────────────────────────

/** db.execute's rows (postgres-js answers an array, PGlite an object with rows). */
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

type Fixtures = Awaited<ReturnType<typeof makeFixtures>>;

async function makeMember(organizationId: string, role: "operator" | "staff" | "marketing" | "admin") {
  const user = await createTestUser();
  await (await getDb()).insert(memberships).values({ organizationId, userId: user.id, role });
  return user;
}

async function makeFixtures() {
  const db = await getDb();
  const tag = randomTag(6);
  const a = await createProducer();
  const b = await createProducer();
  const orgA = a.organization;
  const { event: eventA, date: dateA } = await createPublishedEvent(a.ctx, orgA.id, { name: `Noche Alfa ${tag}`, ticketTypes: [{ name: "General", price: 1_500_000, stock: 100 }, { name: "Transferencia", price: 1_500_000, stock: 100, paymentMethod: "BankAccount" }, { name: "RRPP", price: 1_500_000, stock: 100, paymentMethod: "PromoterAccount" }] });
  const { event: eventB } = await createPublishedEvent(b.ctx, b.organization.id, { name: `Noche Beta ${tag}` });
  await enrolReally(a.user.id);
  const ownerA = await sessionCookiesFor(a.user.id, { secondFactor: true });
  const ownerTokens = { accessToken: ownerA.at, refreshToken: ownerA.rt };
  const asOwner = async <T = any>(query: string, variables: Record<string, unknown>) => {
    const result = await gql<T>(query, { tokens: ownerTokens, variables });
    if (result.body.errors) throw new Error(`fixture ${query.slice(0, 60)}: ${JSON.stringify(result.body.errors)}`);
    return result.body.data as T;
  };
  const types = (await asOwner<{ managedEvent: { ticketTypes: { id: string; name: string }[] } }>(`query($id: ID!) { managedEvent(id: $id) { ticketTypes { id name } } }`, { id: eventA.id })).managedEvent.ticketTypes;
  const ticketA = types.find((t) => t.name === "General")!;
  const transferType = types.find((t) => t.name === "Transferencia")!;
  const inHandType = types.find((t) => t.name === "RRPP")!;

  const operator = await makeMember(orgA.id, "operator");
  const marketing = await makeMember(orgA.id, "marketing");
  const spare = await makeMember(orgA.id, "staff");
  const promoter = await createTestUser({ nickname: `alfa${tag}` });
  const group = await makePromoter(a.ctx, orgA.id, promoter.id);
  const lead = await createTestUser({ nickname: `lider${tag}` });
  const { joinPromoterGroup } = await import("#server/promoters/membership");
  await db.transaction((tx) => joinPromoterGroup(tx, { organizationId: orgA.id, groupId: group.id, userId: lead.id, role: "promoter_lead", now: new Date() }));
  const admin = await createTestUser({ roles: ["admin"] });
  // An admin of A who never turned the second factor on: what moves money or power must ask for it (decision 144).
  const adminWithout2fa = await makeMember(orgA.id, "admin");
  // Rows the allowed deletions and role changes act on, so the shared ones stay for the cells after them.
  const spareGroup = await makePromoter(a.ctx, orgA.id, (await createTestUser({ nickname: `otro${tag}` })).id);
  const sparePromoter = await createTestUser({ nickname: `tercero${tag}` });
  await db.transaction((tx) => joinPromoterGroup(tx, { organizationId: orgA.id, groupId: spareGroup.id, userId: sparePromoter.id, role: "promoter", now: new Date() }));

  // A buyer with a paid order of event A, and a pending bank transfer of someone else.
  const buyer = await createTestUser({ email: `comprador-${tag}@example.com` });
  const payer = { firstName: "Ana", lastName: "Gómez", email: buyer.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
  const webhook = (await asOwner<{ createWebhookEndpoint: { endpoint: { id: string } } }>(`mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`, { input: { organizationId: orgA.id, url: `https://alfa-${tag}.example.com/hooks`, events: ["order.paid"] } })).createWebhookEndpoint.endpoint;
  const paid = await createOrder(await ctxAs(actorFor(buyer)), { eventSlug: eventA.slug, items: [{ ticketId: ticketA.id, qty: 2 }], payer, paymentMethod: "MERCADO_PAGO" });
  await payInSandbox(db, paid.billing.id, "approved");
  const refunded = await createOrder(await ctxAs(actorFor(buyer)), { eventSlug: eventA.slug, items: [{ ticketId: ticketA.id, qty: 1 }], payer, paymentMethod: "MERCADO_PAGO" });
  await payInSandbox(db, refunded.billing.id, "approved");
  const account = await createTransferAccount(a.ctx, orgA.id);
  const transfer = await createOrder(await ctxAs(actorFor(buyer)), { eventSlug: eventA.slug, items: [{ ticketId: transferType.id, qty: 1 }], payer: { ...payer, email: `transferencia-${tag}@example.com` }, paymentMethod: "BANK_TRANSFER" });
  const { uploadBankTransferReceipt } = await import("#server/bank-transfers/bank-transfers");
  const receipt = await uploadBankTransferReceipt(await ctxAs(actorFor(buyer)), { billingId: transfer.billing.id, bytes: await realPdf(), fileName: "comprobante.pdf" });
  const tickets = await db.execute(sql`select id, code from issued_products where order_id = ${paid.order.id} order by id`);

  const coupon = (await asOwner<{ createCoupon: { id: string } }>(`mutation($input: CreateCouponInput!) { createCoupon(input: $input) { id } }`, { input: { eventId: eventA.id, code: `ALFA${tag}`.toUpperCase(), kind: "percent", percent: 10 } })).createCoupon;
  const menuItem = (await asOwner<{ createMenuItem: { id: string } }>(`mutation($input: CreateMenuItemInput!) { createMenuItem(input: $input) { id } }`, { input: { eventId: eventA.id, name: `Fernet Alfa ${tag}`, category: "drink", price: 450_000, stock: 100 } })).createMenuItem;
  const template = (await asOwner<{ createEmailTemplate: { id: string } }>(`mutation($input: EmailTemplateInput!) { createEmailTemplate(input: $input) { id } }`, { input: { organizationId: orgA.id, name: `Plantilla Alfa ${tag}`, subject: `Asunto Alfa ${tag}`, body: "Hola {{nombre}}" } })).createEmailTemplate;
  const campaign = (await asOwner<{ createCampaign: { id: string } }>(`mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { id } }`, { input: { organizationId: orgA.id, name: `Campaña Alfa ${tag}`, templateId: template.id, audience: "event", eventId: eventA.id } })).createCampaign;
  const invitation = (await asOwner<{ sendInvitation: { id: string } }>(`mutation($input: SendInvitationInput!) { sendInvitation(input: $input) { id } }`, { input: { eventId: eventA.id, ticketTypeId: ticketA.id, qty: 1, email: `invitada-${tag}@example.com`, firstName: "Inés", lastName: "Invitada" } })).sendInvitation;
  const spareWebhook = (await asOwner<{ createWebhookEndpoint: { endpoint: { id: string } } }>(`mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`, { input: { organizationId: orgA.id, url: `https://otro-${tag}.example.com/hooks`, events: ["order.paid"] } })).createWebhookEndpoint.endpoint;
  const spareTemplate = (await asOwner<{ createEmailTemplate: { id: string } }>(`mutation($input: EmailTemplateInput!) { createEmailTemplate(input: $input) { id } }`, { input: { organizationId: orgA.id, name: `Otra plantilla ${tag}`, subject: "Hola", body: "Hola" } })).createEmailTemplate;
  const { createBankAccount } = await import("#server/payouts/bank-accounts");
  const spareAccount = await createBankAccount(await withSecondFactor(a.ctx), { organizationId: orgA.id, cbu: buildCbu("285", "0590", "9400904181352"), holderName: "Productora de Prueba SRL", holderCuit: "30-71234567-1" });
  const giveaway = (await asOwner<{ previewGiveaway: { id: string } }>(`mutation($input: PreviewGiveawayInput!) { previewGiveaway(input: $input) { id } }`, { input: { eventId: eventA.id, fileName: "invitados.csv", csv: `email,nombre,apellido,dni,cantidad,tipo de entrada\nlista-${tag}@example.com,Lía,Lista,30123456,1,General` } })).previewGiveaway;
  await asOwner(`mutation($org: ID!, $email: String!) { inviteMember(organizationId: $org, email: $email, role: "operator") { id } }`, { org: orgA.id, email: `equipo-${tag}@example.com` });
  await asOwner(`mutation($input: InvitePromoterInput!) { invitePromoter(input: $input) }`, { input: { groupId: group.id, who: `rrpp-${tag}@example.com` } });
  const invites = rowsOf<{ id: string; promoter_group_id: string | null }>(await db.execute(sql`select id, promoter_group_id from membership_invitations where organization_id = ${orgA.id} and revoked_at is null`));
  const teamInvitation = invites.find((i) => !i.promoter_group_id)!;
  const promoterInvitation = invites.find((i) => i.promoter_group_id)!;
  const [loggedEmail] = rowsOf<{ id: string }>(await db.execute(sql`select id from email_log where organization_id = ${orgA.id} limit 1`));
  const [delivery] = rowsOf<{ id: string }>(await db.execute(sql`select id from webhook_deliveries where endpoint_id = ${webhook.id} limit 1`));
  const refundRequest = await requestRefundAsBuyer(buyer.email, refunded.order.code);
  // A withdrawal waiting for the platform team (another organization's: only the platform team decides them).
  const released = await createEventWithReleasedSales();
  const { requestWithdrawal } = await import("#server/payouts/withdrawals");
  const withdrawal = await requestWithdrawal(released.ctx, { organizationId: released.organization.id, bankAccountId: released.account.id, amount: "100" });
  // A's event has a virtual queue, off (buying stays open for every other cell); B's has one on, to join.
  const { setEventQueue } = await import("#server/queue/queue");
  await setEventQueue(a.ctx, { eventId: eventA.id, enabled: false, opensAt: inDays(1) });
  await setEventQueue(b.ctx, { eventId: eventB.id, enabled: true, opensAt: inDays(1) });
  // The buyer waits on A's list (written as a join and an offer run would leave them, with the offer already over:
  // no cell moves stock by claiming or leaving it).
  const [waitEntry] = await db.insert(waitlistEntries).values({ eventId: eventA.id, eventDateId: dateA.id, ticketTypeId: ticketA.id, userId: buyer.id, quantity: 1, joinedAt: new Date(), updatedAt: new Date() }).returning();
  const [waitOffer] = await db.insert(waitlistOffers).values({ entryId: waitEntry.id, ticketTypeId: ticketA.id, quantity: 1, status: "expired", offeredAt: new Date(), expiresAt: new Date(), endedAt: new Date() }).returning();
  const doorPin = (await asOwner<{ rotateDoorPin: { pin: string } }>(`mutation($id: ID!) { rotateDoorPin(eventId: $id) { pin } }`, { id: eventA.id })).rotateDoorPin.pin;

  // Reserved seating (docs/seating.md): A's event uses a map without numbered seats, so every other cell buys General as before.
  const { saveSeatMap } = await import("#server/seating/maps");
  const { setEventSeating } = await import("#server/seating/event-seating");
  const seatMap = await saveSeatMap(a.ctx, {
    organizationId: orgA.id,
    plan: { name: "Sala de prueba", size: { width: 100, height: 100 }, categories: [{ name: "Campo" }], sections: [{ id: "campo", name: "Campo", kind: "standing", rows: [], standing: { category: "Campo", capacity: 100, x: 0, y: 0, width: 50, height: 50 } }], shapes: [] },
  });
  await setEventSeating(a.ctx, { eventId: eventA.id, seatMapId: seatMap.id, categories: [] });

  /** Strings only organization A's data carries: none may appear in a refusal. */
  const secrets = [orgA.name, `Alfa ${tag}`, `ALFA${tag}`.toUpperCase(), a.user.email, buyer.email, `alfa-${tag}.example.com`, account.cbu, doorPin, ...rowsOf<{ code: string }>(tickets).map((t) => t.code)];

  return {
    tag, db, orgA, orgB: b.organization, eventA, dateA, eventB, ticketA, a, b, operator, marketing, spare, promoter, lead, group, admin, adminWithout2fa, buyer,
    waitEntry, waitOffer, seatMap,
    paid, refunded, withdrawal, transfer, receipt, account, inHandType, giveaway, teamInvitation, promoterInvitation, loggedEmail, delivery, refundRequest, spareGroup, sparePromoter, spareWebhook, spareTemplate, spareAccount, tickets: rowsOf<{ id: string; code: string }>(tickets), coupon, menuItem, webhook, template, campaign, invitation, doorPin, secrets,
  };
}

/** The buyer asks for their money back (an organizer decides it: the event is ten days away, past the legal window? then it waits). */
async function requestRefundAsBuyer(email: string, orderCode: string) {
  const result = await gql<{ requestRefund: { request: { id: string } | null } }>(`mutation($input: RequestRefundInput!) { requestRefund(input: $input) { request { id } } }`, { ip: "192.0.2.200", variables: { input: { email, orderCode, reason: "No puedo ir" } } });
  const db = await getDb();
  const [row] = rowsOf<{ id: string }>(await db.execute(sql`select id from refund_requests order by created_at desc limit 1`));
  return { id: row?.id ?? NO_ROW, answer: result.body };
}

// ───────────────────────── Actors ─────────────────────────

/** A real TOTP key, so the second-factor operations answer as for a person who has one on (sessionCookiesFor's stand-in key is not one). */
async function enrolReally(userId: string) {
  if (enrolled.has(userId)) return;
  const first = await sessionCookiesFor(userId);
  await enrolSecondFactor({ id: userId, email: "" }, first.at);
  enrolled.add(userId);
}

interface Credentials {
  cookies: Record<string, string>;
  tokens?: { accessToken: string; refreshToken: string };
}

function userOf(f: Fixtures, actor: ActorName): { id: string; roles?: string[] } | null {
  switch (actor) {
    case "anonymous":
    case "staffPin":
      return null;
    case "buyer":
      return f.buyer;
    case "producerA":
      return { id: f.a.user.id, roles: ["producer"] };
    case "producerB":
      return { id: f.b.user.id, roles: ["producer"] };
    case "operator":
      return f.operator;
    case "promoter":
      return f.promoter;
    case "promoterLead":
      return f.lead;
    case "marketing":
      return f.marketing;
    case "platformAdmin":
      return f.admin;
    case "adminWithout2fa":
      return f.adminWithout2fa;
  }
}

const sessions = new Map<ActorName, Credentials>();
const enrolled = new Set<string>();

async function credentialsOf(f: Fixtures, actor: ActorName): Promise<Credentials> {
  const cached = sessions.get(actor);
  if (cached) return cached;
  let credentials: Credentials = { cookies: {} };
  if (actor === "staffPin") {
    // The event's PIN now (a cell may have rotated or revoked it), and a door opened with it.
    const pin = (await doorPinOf(f.a.ctx, f.eventA.id))?.pin ?? (await rotateDoorPin(f.a.ctx, f.eventA.id)).pin;
    const { token } = await unlockDoor(await ctxAs(), { slug: f.eventA.slug, pin });
    credentials = { cookies: { [`door-${f.eventA.slug}`]: token } };
  } else {
    const user = userOf(f, actor);
    if (user) {
      // Everyone has the second factor on and proved in this sign-in, but the admin who never turned it on.
      const secondFactor = actor !== "adminWithout2fa";
      if (secondFactor) await enrolReally(user.id);
      const cookies = await sessionCookiesFor(user.id, { secondFactor });
      credentials = { cookies, tokens: { accessToken: cookies.at, refreshToken: cookies.rt } };
    }
  }
  sessions.set(actor, credentials);
  return credentials;
}

let ipCounter = 0;
/** Each call from its own address, so the per-address rate limits of sign-in or refunds never answer instead of the rule. */
function nextIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

// ───────────────────────── Database snapshots ─────────────────────────

/**
 * Tables a refused request may still write: the attempts the rate limits count, the sessions a request
 * refreshes, and Mercado Pago's notifications (every one is logged, forged ones too, before the signature is checked).
 */
const VOLATILE_TABLES = new Set(["login_attempts", "sessions", "payment_notifications"]);
let snapshotSql: string | null = null;

async function snapshot(): Promise<Map<string, string>> {
  const db = await getDb();
  if (!snapshotSql) {
    const tables = await db.execute<{ table_name: string }>(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`);
    snapshotSql = rowsOf<{ table_name: string }>(tables)
      .map((r) => r.table_name)
      .filter((t) => !VOLATILE_TABLES.has(t) && !t.startsWith("__"))
      // Rows and the newest row version (xmin) of each table: an insert or delete changes the count, an update the newest xmin.
      .map((t) => `select '${t}' as t, count(*)::text || ':' || coalesce(max(xmin::text::bigint), 0)::text as h from "${t}"`)
      .join(" union all ");
  }
  const rows = await db.execute<{ t: string; h: string }>(sql.raw(snapshotSql));
  return new Map(rowsOf<{ t: string; h: string }>(rows).map((r) => [r.t, r.h]));
}

function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after.keys()].filter((t) => before.get(t) !== after.get(t));
}

// ───────────────────────── Calls ─────────────────────────

/** A selection of the field's scalars, and of its objects' scalars one level down. */
function selection(type: GraphQLObjectType, depth = 0): string {
  const parts = ["__typename"];
  for (const field of Object.values(type.getFields())) {
    if (field.args.some((arg) => isNonNullType(arg.type))) continue;
    const named = getNamedType(field.type);
    if (isLeafType(named)) parts.push(field.name);
    else if (isObjectType(named) && depth < 2) parts.push(`${field.name} { ${selection(named, depth + 1)} }`);
  }
  return parts.join(" ");
}

function graphqlDocument(type: "query" | "mutation" | "subscription", field: GraphQLField<unknown, unknown>): string {
  const defs = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(", ");
  const args = field.args.map((a) => `${a.name}: $${a.name}`).join(", ");
  const named = getNamedType(field.type);
  const select = isObjectType(named) ? ` { ${selection(named)} }` : "";
  return `${type === "subscription" ? "query" : type}${defs ? `(${defs})` : ""} { ${field.name}${args ? `(${args})` : ""}${select} }`;
}

function graphqlOutcome(body: { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: string; reason?: string } }[] }, fieldName: string): { outcome: Outcome; detail: string } {
  const code = body.errors?.[0]?.extensions?.code;
  const reason = body.errors?.[0]?.extensions?.reason;
  if (code === "UNAUTHENTICATED") return { outcome: "sesión", detail: code };
  if (code === "FORBIDDEN" && reason?.startsWith("SECOND_FACTOR_")) return { outcome: "2FA", detail: `${code} ${reason}` };
  if (code === "FORBIDDEN") return { outcome: "403", detail: code };
  if (code === "NOT_FOUND") return { outcome: "404", detail: code };
  if (code) return { outcome: "✓", detail: `${code} ${(body.errors?.[0] as { message?: string })?.message ?? ""}` };
  if (body.data && body.data[fieldName] === null) return { outcome: "404", detail: "null" };
  return { outcome: "✓", detail: "ok" };
}

function routeOutcome(result: RouteResult): { outcome: Outcome; detail: string } {
  const detail = `${result.status}${result.location ? ` → ${result.location}` : ""}`;
  if (result.location && /^\/cuenta\/iniciar-sesion/.test(result.location)) return { outcome: "sesión", detail };
  if (result.location && /^\/cuenta\/(verificacion|seguridad)/.test(result.location)) return { outcome: "2FA", detail };
  if (result.status === 401) return { outcome: "sesión", detail };
  if (result.status === 403) return { outcome: "403", detail };
  if (result.status === 404) return { outcome: "404", detail };
  return { outcome: "✓", detail };
}

/** What the person would read: the data, or the body of a Response (a concealed 404, a file). */
async function resultText(result: RouteResult, response: Response | null): Promise<string> {
  const body = response && !response.bodyUsed ? await response.text() : "";
  return `${JSON.stringify(result.data ?? null) ?? ""}${body}`;
}

/** The loader or action, keeping a copy of the Response it returns or throws (run() keeps only its status and headers). */
function capturing(fn: (args: unknown) => unknown, into: { response: Response | null }) {
  return async (args: unknown) => {
    try {
      const value = await fn(args);
      if (value instanceof Response) into.response = value.clone();
      return value;
    } catch (error) {
      if (error instanceof Response) into.response = error.clone();
      throw error;
    }
  };
}

// ───────────────────────── The matrix ─────────────────────────

const doc = readDoc();
const graphql = graphqlOperations();
let routes: Awaited<ReturnType<typeof routeOperations>> = [];
let f: Fixtures;
const observed: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  routes = await routeOperations();
  f = await makeFixtures();
});

// AUTHZ_DISCOVER=1: nothing is asserted, and what every cell answered is written to authz-observed.json (to review a new route's row).
afterAll(() => {
  if (!DISCOVER) return;
  fs.mkdirSync(path.join(ROOT, ".data"), { recursive: true });
  fs.writeFileSync(path.join(ROOT, ".data/authz-observed.json"), JSON.stringify(observed, null, 1));
});

/** The actors in the order they run: refusals first, so an allowed write never changes what a refusal finds. */
function actorOrder(rule: Record<ActorName, Outcome> | undefined): ActorName[] {
  if (!rule) return [...ACTORS];
  return [...ACTORS].sort((x, y) => Number(rule[x] === "✓") - Number(rule[y] === "✓"));
}

/** A refusal (or an allowed answer that must carry nothing of A): none of A's data in the answer, the database as it was. */
async function expectNothingOfA(name: string, actor: ActorName, text: string, before: Map<string, string> | null) {
  // The door's PIN as it is now (cells rotate it), with the rest of A's data.
  const pin = (await doorPinOf(f.a.ctx, f.eventA.id))?.pin;
  for (const secret of pin ? [...f.secrets, pin] : f.secrets) expect(text, `${name} as ${actor} carries organization A's data (${secret})`).not.toContain(secret);
  if (before) expect(changedTables(before, await snapshot()), `${name} as ${actor} changed the database`).toEqual([]);
}

/** What the doc's cell asks of what came back. */
function matches(expected: Outcome, got: Outcome): boolean {
  return expected === got || (expected === "∅" && got === "✓");
}

describe("every route and operation has a row in docs/authorization.md", () => {
  it("routes with a loader or an action, GraphQL queries, mutations and subscriptions", async () => {
    const modules = await routeOperations();
    // The cells below are listed from the sources (describe.each runs before any import): they must agree with the modules.
    expect(routeFiles().flatMap((file) => exportsOf(file).map((kind) => `ruta ${file.replace(/\.(tsx?|jsx?)$/, "")} ${kind}`))).toEqual(modules.map((o) => o.name));
    const names = [...graphql.map((o) => o.name), ...modules.map((o) => o.name)];
    const missing = names.filter((n) => !doc.operations.has(n));
    const stale = [...doc.operations.keys()].filter((n) => !names.includes(n));
    const unknownRules = [...doc.operations.entries()].filter(([, rule]) => !doc.rules.has(rule)).map(([op, rule]) => `${op}: ${rule}`);
    if (!DISCOVER) expect({ missing, stale, unknownRules }).toEqual({ missing: [], stale: [], unknownRules: [] });
  });
});

describe.each(graphql.map((o) => [o.name, o] as const))("%s", (name, op) => {
  const rule = doc.rules.get(doc.operations.get(name) ?? "");
  it.each(actorOrder(rule))(`${name} · %s`, async (actor) => {
    const credentials = await credentialsOf(f, actor);
    const call = graphqlCalls[op.field.name];
    // Rate limits count per email too: every call starts from none, so the rule answers and not the limit.
    await f.db.execute(sql`delete from login_attempts`);
    const variables = call ? await call(f) : {};
    // Writes are checked against a snapshot of the whole database; reads, for what they answer.
    const before = rule && rule[actor] !== "✓" && op.type === "mutation" && !DISCOVER ? await snapshot() : null;
    const result = await gql(graphqlDocument(op.type, op.field), { ip: nextIp(), tokens: credentials.tokens, headers: Object.keys(credentials.cookies).length && !credentials.tokens ? { cookie: Object.entries(credentials.cookies).map(([k, v]) => `${k}=${v}`).join("; ") } : undefined, variables });
    const got = graphqlOutcome(result.body as never, op.field.name);
    resetSessions(name, actor);
    (observed[name] ??= {})[actor] = `${got.outcome} ${got.detail}`;
    if (DISCOVER) return;
    expect(rule, `${name} has no rule`).toBeDefined();
    const expected = rule![actor];
    expect(matches(expected, got.outcome), `${name} as ${actor}: expected ${expected}, got ${got.outcome} (${got.detail}) ${JSON.stringify(result.body).slice(0, 400)}`).toBe(true);
    if (expected !== "✓") await expectNothingOfA(name, actor, JSON.stringify(result.body), expected === "∅" ? null : before);
  });
});

/** Operations that end the actor's session (the next call starts a fresh one), or every PIN session of the door. */
const ENDS_SESSION = /^(mutation (logout|disableTwoFactor|confirmTwoFactorEnrolment|startTwoFactorEnrolment|verifySecondFactor|updateUser)|ruta cuenta\.(cerrar-sesion|seguridad|verificacion|mi-cuenta|imperson) action)$/;
const ENDS_DOOR = /^(mutation (rotateDoorPin|revokeDoorPin)|ruta organizacion\.staff-pin action)$/;

function resetSessions(name: string, actor: ActorName) {
  if (ENDS_SESSION.test(name)) sessions.delete(actor);
  if (ENDS_DOOR.test(name)) sessions.delete("staffPin");
}

describe("routes", () => {
  it("are all exercised below", () => {
    expect(routeFiles().length).toBeGreaterThan(0);
  });
});

describe.each(routeFiles().flatMap((file) => exportsOf(file).map((kind) => [`ruta ${file.replace(/\.(tsx?|jsx?)$/, "")} ${kind}`, file.replace(/\.(tsx?|jsx?)$/, ""), kind] as const)).filter(([name]) => doc.operations.has(name) || DISCOVER))("%s", (name, id, kind) => {
  const rule = doc.rules.get(doc.operations.get(name) ?? "");
  it.each(actorOrder(rule))(`${name} · %s`, async (actor) => {
    const op = routes.find((r) => r.name === name);
    if (!op) return; // no such export: the listing test above says so
    const credentials = await credentialsOf(f, actor);
    await f.db.execute(sql`delete from login_attempts`);
    const call = await routeCalls(f, id, kind);
    const params = routeParams(id, call.params);
    let url = routePath(id, params);
    if (call.query) url += `?${new URLSearchParams(call.query).toString()}`;
    const request = kind === "loader" ? getRequest(url, { cookies: credentials.cookies, ip: nextIp() }) : formRequest(url, call.form ?? {}, { cookies: credentials.cookies, ip: nextIp() });
    const before = rule && rule[actor] !== "✓" && kind === "action" && !DISCOVER ? await snapshot() : null;
    let result: RouteResult;
    const captured: { response: Response | null } = { response: null };
    try {
      result = await run(capturing(op.fn, captured), request, params);
    } catch (error) {
      (observed[name] ??= {})[actor] = `throws ${String(error).slice(0, 80)}`;
      if (DISCOVER) return;
      throw error;
    }
    const got = routeOutcome(result);
    resetSessions(name, actor);
    (observed[name] ??= {})[actor] = `${got.outcome} ${got.detail}`;
    if (DISCOVER) return;
    const expected = rule![actor];
    const text = await resultText(result, captured.response);
    expect(matches(expected, got.outcome), `${name} as ${actor}: expected ${expected}, got ${got.outcome} (${got.detail}) ${text.slice(0, 300)}`).toBe(true);
    if (expected !== "✓") await expectNothingOfA(name, actor, text, expected === "∅" ? null : before);
  });
});

// ───────────────────────── Valid arguments pointing at organization A ─────────────────────────

const NO_ROW = "00000000-0000-4000-8000-000000000000";
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** Variables of each operation, aimed at organization A's rows (a refusal must then be a real check, not a missing row). */
const graphqlCalls: Record<string, (f: Fixtures) => Record<string, unknown> | Promise<Record<string, unknown>>> = {
  seatMap: (f) => ({ id: f.seatMap.id }),
  seatMaps: (f) => ({ organizationId: f.orgA.id }),
  eventSeating: (f) => ({ eventId: f.eventA.id, dateId: f.dateA.id }),
  saveSeatMap: (f) => ({ input: { id: f.seatMap.id, organizationId: f.orgA.id, plan: f.seatMap.plan } }),
  seatMapPretix: (f) => ({ id: f.seatMap.id }),
  importSeatMap: (f) => ({ input: { organizationId: f.orgA.id, name: `Sala ${randomTag(5)}`, pretixPlan: fs.readFileSync(path.join(ROOT, "tests/fixtures/seating/pretix-teatro-del-pasaje.json"), "utf8") } }),
  // A's map keeps its name and stage (the event's seating stays valid), on the version it has now.
  editSeatMap: async (f) => ({
    input: { id: f.seatMap.id, version: rowsOf<{ version: number }>(await f.db.execute(sql`select version from seat_maps where id = ${f.seatMap.id}`))[0]!.version, operation: { op: "details", name: f.seatMap.plan.name, front: "top" } },
  }),
  setEventSeating: (f) => ({ input: { eventId: f.eventA.id, seatMapId: f.seatMap.id, categories: [] } }),
  blockSeats: (f) => ({ input: { eventId: f.eventA.id, eventDateId: f.dateA.id, seats: ["sin-asiento"], reason: "Cámara" } }),
  releaseSeats: (f) => ({ input: { eventId: f.eventA.id, eventDateId: f.dateA.id, seats: ["sin-asiento"] } }),
  accreditations: (f) => ({ organizationId: f.orgA.id, eventId: f.eventA.id }),
  bankAccounts: (f) => ({ organizationId: f.orgA.id }),
  bankTransfers: (f) => ({ organizationId: f.orgA.id }),
  billing: (f) => ({ billingId: f.paid.billing.id }),
  campaign: (f) => ({ id: f.campaign.id }),
  campaignAudienceSize: (f) => ({ input: { organizationId: f.orgA.id, audience: "event", eventId: f.eventA.id } }),
  campaigns: (f) => ({ organizationId: f.orgA.id }),
  coupons: (f) => ({ organizationId: f.orgA.id, eventId: f.eventA.id }),
  current: () => ({}),
  doorManifest: (f) => ({ eventSlug: f.eventA.slug }),
  eventQueue: (f) => ({ eventId: f.eventA.id }),
  queuePlace: (f) => ({ eventSlug: f.eventA.slug }),
  joinQueue: (f) => ({ eventSlug: f.eventB.slug }),
  pauseEventQueue: (f) => ({ eventId: f.eventA.id }),
  resumeEventQueue: (f) => ({ eventId: f.eventA.id }),
  setEventQueue: (f) => ({ input: { eventId: f.eventA.id, enabled: false, opensAt: inDays(2) } }),
  setEventLiveQr: (f) => ({ input: { eventId: f.eventA.id, enabled: true, staticCodeRevealHours: 12 } }),
  eventWaitlist: (f) => ({ eventId: f.eventA.id }),
  myWaitlist: () => ({}),
  joinWaitlist: (f) => ({ input: { eventSlug: f.eventA.slug, ticketTypeId: f.ticketA.id, quantity: 1 } }),
  leaveWaitlist: (f) => ({ entryId: f.waitEntry.id }),
  doorPin: (f) => ({ eventId: f.eventA.id }),
  doorSearch: (f) => ({ eventSlug: f.eventA.slug, query: "Gómez" }),
  emailLog: (f) => ({ filter: { organizationId: f.orgA.id } }),
  emailTemplate: (f) => ({ id: f.template.id }),
  emailTemplates: (f) => ({ organizationId: f.orgA.id }),
  event: (f) => ({ slug: f.eventA.slug }),
  eventMetrics: (f) => ({ eventId: f.eventA.id }),
  events: () => ({}),
  fetchUserByNickname: (f) => ({ nickname: f.promoter.nickname }),
  findUsers: (f) => ({ text: `comprador-${f.tag}` }),
  findUsersByOrganization: (f) => ({ input: { organizationId: f.orgA.id } }),
  getMetricReferralSalesByUser: (f) => ({ input: { organizationId: f.orgA.id, userId: f.promoter.id } }),
  giveaway: (f) => ({ id: f.giveaway.id }),
  giveawayRows: (f) => ({ input: { giveawayId: f.giveaway.id } }),
  invitations: (f) => ({ filter: { organizationId: f.orgA.id } }),
  ledger: (f) => ({ organizationId: f.orgA.id }),
  liveNight: (f) => ({ eventSlug: f.eventA.slug }),
  loggedEmail: (f) => ({ id: f.loggedEmail?.id ?? NO_ROW }),
  managedEvent: (f) => ({ id: f.eventA.id }),
  menu: (f) => ({ eventSlug: f.eventA.slug }),
  menuItems: (f) => ({ eventId: f.eventA.id }),
  mercadoPagoConnection: (f) => ({ organizationId: f.orgA.id }),
  myOrganizations: () => ({}),
  myPromoterGroup: (f) => ({ organizationId: f.orgA.id }),
  myTickets: () => ({}),
  orders: (f) => ({ filter: { organizationId: f.orgA.id } }),
  organization: (f) => ({ slug: f.orgA.slug }),
  organizationEvents: (f) => ({ organizationId: f.orgA.id }),
  organizationSummary: (f) => ({ organizationId: f.orgA.id }),
  paymentConfig: (f) => ({ organizationId: f.orgA.id }),
  platformOrganizations: () => ({}),
  previewEmailTemplate: (f) => ({ input: { organizationId: f.orgA.id, subject: "Hola", body: "Hola {{nombre}}" } }),
  previewOrder: (f) => ({ input: { eventSlug: f.eventA.slug, eventDateId: f.dateA.id, items: [{ ticketId: f.ticketA.id, qty: 1 }] } }),
  promoterGroups: (f) => ({ organizationId: f.orgA.id }),
  refundRequest: (f) => ({ code: f.paid.order.code ?? "X", email: f.buyer.email }),
  refundsOverview: () => ({}),
  reportDownload: (f) => ({ input: { organizationId: f.orgA.id, kind: "ventas" } }),
  team: (f) => ({ organizationId: f.orgA.id }),
  ticketsSellableInHand: (f) => ({ organizationId: f.orgA.id }),
  twoFactorStatus: () => ({}),
  userByEmail: (f) => ({ email: f.buyer.email }),
  webhookDeliveries: (f) => ({ endpointId: f.webhook.id }),
  webhookEndpoints: (f) => ({ organizationId: f.orgA.id }),
  withdrawalBalance: (f) => ({ organizationId: f.orgA.id }),
  withdrawals: (f) => ({ organizationId: f.orgA.id }),

  acceptServiceConditions: (f) => ({ input: { id: f.eventA.id } }),
  acceptTeamInvitation: () => ({ token: "no-existe-este-token" }),
  addEventDate: (f) => ({ input: { eventId: f.eventA.id, startsAt: inDays(20), endsAt: inDays(20.2) } }),
  addTicketStock: (f) => ({ input: { id: f.ticketA.id, quantity: 1 } }),
  approveBankTransfer: (f) => ({ input: { billingId: f.transfer.billing.id } }),
  approveRefund: (f) => ({ input: { id: f.refundRequest.id } }),
  approveWithdrawal: (f) => ({ id: f.withdrawal.id }),
  cancelCampaign: (f) => ({ id: f.campaign.id }),
  changeMemberRole: async (f) => ({ organizationId: f.orgA.id, userId: (await spareMember(f, "role")).id, role: "operator" }),
  confirmTwoFactorEnrolment: () => ({ code: "123456" }),
  connectMercadoPago: (f) => ({ input: { organizationId: f.orgA.id } }),
  createBankAccount: (f) => ({ input: { organizationId: f.orgA.id, cbu: buildCbu("017", "0329", String(Date.now()).slice(-13).padStart(13, "0")), holderName: "Otra Cuenta SRL", holderCuit: "30-71234567-1" } }),
  createCampaign: (f) => ({ input: { organizationId: f.orgA.id, name: "Otra campaña", templateId: f.template.id, audience: "event", eventId: f.eventA.id } }),
  createCoupon: (f) => ({ input: { eventId: f.eventA.id, code: `OTRO${randomTag(5)}`.toUpperCase(), kind: "percent", percent: 5 } }),
  createEmailTemplate: (f) => ({ input: { organizationId: f.orgA.id, name: "Otra plantilla", subject: "Hola", body: "Hola" } }),
  createEvent: (f) => ({ input: { organizationId: f.orgA.id, name: "Otro evento", venueName: "Club", venueAddress: "Calle 1", city: "Buenos Aires", province: "AR-CF", dates: [{ startsAt: inDays(30), endsAt: inDays(30.2) }] } }),
  createMenuItem: (f) => ({ input: { eventId: f.eventA.id, name: "Agua", category: "drink", price: 100_000, stock: 10 } }),
  createOrder: (f) => ({ input: { eventSlug: f.eventA.slug, eventDateId: f.dateA.id, items: [{ ticketId: f.ticketA.id, qty: 1 }], payer: { firstName: "Ana", lastName: "Gómez", email: "otra@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" }, paymentMethod: "MERCADO_PAGO" } }),
  createOrganization: () => ({ input: { name: `Otra productora ${randomTag(5)}`, cuit: "30-71234567-1", contactEmail: "hola@otra.com.ar" } }),
  createPromoterGroup: (f) => ({ input: { organizationId: f.orgA.id, name: `Grupo ${randomTag(5)}` } }),
  createSignInLink: () => ({ email: `nadie-${randomTag(6)}@example.com` }),
  createTicketType: (f) => ({ input: { eventId: f.eventA.id, name: `VIP ${randomTag(4)}`, price: 2_000_000, stock: 10 } }),
  createWebhookEndpoint: (f) => ({ input: { organizationId: f.orgA.id, url: "https://otro.example.com/hooks", events: ["order.paid"] } }),
  deleteBankAccount: async (f) => ({ input: { id: (await spareBankAccount(f)).id } }),
  deleteEmailTemplate: async (f) => ({ id: (await spareTemplate(f)).id }),
  deletePromoterGroup: async (f) => ({ groupId: (await spareGroup(f)).id }),
  deleteWebhookEndpoint: async (f) => ({ id: (await spareWebhook(f)).id }),
  disableTwoFactor: () => ({ code: "123456" }),
  disconnectMercadoPago: (f) => ({ input: { organizationId: f.orgA.id } }),
  finishSignInFromLink: () => ({ token: "no-existe-este-token" }),
  impersonatedLogin: (f) => ({ email: f.buyer.email }),
  inviteMember: (f) => ({ organizationId: f.orgA.id, email: `equipo-${randomTag(5)}@example.com`, role: "operator" }),
  invitePromoter: (f) => ({ input: { groupId: f.group.id, who: `rrpp-${randomTag(5)}@example.com` } }),
  login: () => ({ email: `nadie-${randomTag(6)}@example.com`, password: "clave-equivocada" }),
  logout: () => ({}),
  markRefundTransferred: (f) => ({ input: { id: f.refundRequest.id } }),
  markWithdrawalPaid: (f) => ({ id: f.withdrawal.id, transferReference: "REF-1" }),
  openDoor: async (f) => ({ eventSlug: f.eventA.slug, staffPin: (await doorPinOf(f.a.ctx, f.eventA.id))?.pin ?? f.doorPin }),
  previewGiveaway: (f) => ({ input: { eventId: f.eventA.id, fileName: "lista.csv", csv: "email,nombre,apellido\nuno@example.com,Uno,Dos" } }),
  publishEvent: (f) => ({ input: { id: f.eventA.id } }),
  recordPromoterSettlement: (f) => ({ input: { organizationId: f.orgA.id, userId: f.promoter.id, amount: 1000 } }),
  recoverPassword: () => ({ email: "nadie@example.com", code: "000000", password: "clave-nueva-1234" }),
  recoverPasswordCode: () => ({ email: `nadie-${randomTag(6)}@example.com` }),
  redeemProduct: (f) => ({ input: { eventSlug: f.eventA.slug, code: f.tickets[0].code } }),
  register: () => ({ email: `nueva-${randomTag(6)}@example.com`, firstName: "Nueva", lastName: "Persona", password: "clave-segura-1234" }),
  registerFromLink: () => ({ token: "no-existe-este-token", firstName: "Nueva", lastName: "Persona" }),
  rejectBankTransfer: (f) => ({ input: { billingId: f.transfer.billing.id, reason: "No llegó" } }),
  rejectRefund: (f) => ({ input: { id: f.refundRequest.id, reason: "Fuera de plazo" } }),
  rejectWithdrawal: (f) => ({ id: f.withdrawal.id, reason: "Datos mal" }),
  removeMember: async (f) => ({ organizationId: f.orgA.id, userId: (await spareMember(f, "remove")).id }),
  removePromoter: async (f) => ({ groupId: f.spareGroup.id, userId: (await sparePromoter(f)).id }),
  reorderMenu: (f) => ({ eventId: f.eventA.id, ids: [f.menuItem.id] }),
  replayWebhookDelivery: (f) => ({ deliveryId: f.delivery?.id ?? NO_ROW }),
  requestRefund: (f) => ({ input: { email: f.buyer.email, orderCode: f.paid.order.code ?? "X" } }),
  requestWithdrawal: (f) => ({ input: { organizationId: f.orgA.id, bankAccountId: f.account.id, amount: 100 } }),
  resendEmail: (f) => ({ id: f.loggedEmail?.id ?? NO_ROW }),
  resendInvitation: (f) => ({ id: f.invitation.id }),
  revokeDoorPin: (f) => ({ eventId: f.eventA.id }),
  revokeInvitation: (f) => ({ id: f.invitation.id }),
  revokePromoterInvitation: async (f) => ({ groupId: f.group.id, invitationId: (await spareInvitation(f, "promoter")).id }),
  revokeTeamInvitation: async (f) => ({ organizationId: f.orgA.id, invitationId: (await spareInvitation(f, "team")).id }),
  rotateDoorPin: (f) => ({ eventId: f.eventA.id }),
  rotateWebhookSecret: (f) => ({ id: f.webhook.id }),
  retryFailedWebhookDeliveries: (f) => ({ organizationId: f.orgA.id, endpointId: f.webhook.id }),
  saveEventSchedule: (f) => ({ input: { eventId: f.eventA.id } }),
  scheduleCampaign: (f) => ({ input: { id: f.campaign.id, sendAt: inDays(3) } }),
  sellTicketsInHand: (f) => ({ input: { organizationId: f.orgA.id, ticketTypeId: f.inHandType.id, qty: 1, email: "mano@example.com", firstName: "En", lastName: "Mano" } }),
  sendCampaign: (f) => ({ id: f.campaign.id }),
  sendEmailVerification: () => ({}),
  sendInvitation: (f) => ({ input: { eventId: f.eventA.id, ticketTypeId: f.ticketA.id, qty: 1, email: `otra-${randomTag(5)}@example.com`, firstName: "Otra", lastName: "Invitada" } }),
  sendTestEmail: (f) => ({ input: { organizationId: f.orgA.id, subject: "Prueba", body: "Hola" } }),
  setCouponStatus: (f) => ({ input: { id: f.coupon.id, status: "paused" } }),
  setEventCustomFields: (f) => ({ input: { id: f.eventA.id, fields: [{ kind: "text", label: "Talle" }] } }),
  setEventDateStatus: (f) => ({ input: { id: f.dateA.id, status: "active" } }),
  setEventPixel: (f) => ({ input: { id: f.eventA.id, pixelId: "1234567890" } }),
  setEventPresaleCode: (f) => ({ input: { id: f.eventA.id, presaleCode: "PREVENTA" } }),
  setEventStatus: (f) => ({ input: { id: f.eventA.id, status: "active" } }),
  setMenuItemStatus: (f) => ({ id: f.menuItem.id, status: "paused" }),
  setPromoterGroupLead: async (f) => ({ groupId: f.spareGroup.id, userId: (await sparePromoter(f)).id }),
  setTicketTypeStatus: (f) => ({ input: { id: f.ticketA.id, status: "active" } }),
  startGiveaway: (f) => ({ id: f.giveaway.id }),
  startTwoFactorEnrolment: () => ({}),
  syncDoorScans: (f) => ({ input: { eventSlug: f.eventA.slug, deviceId: "telefono-1", scans: [{ scanId: `scan-${randomTag(8)}`, code: f.tickets[1].code, scannedAt: new Date().toISOString(), acceptedOffline: false }] } }),
  transferTicket: (f) => ({ input: { ticketId: f.tickets[1].id, email: "amiga@example.com", firstName: "Amiga", lastName: "Pérez" } }),
  resaleListings: (f) => ({ eventSlug: f.eventA.slug }),
  // The first ticket: the second is the one sent to someone (transferTicket), and a listed ticket is not sent.
  listForResale: (f) => ({ input: { ticketId: f.tickets[0].id, price: 100 } }),
  cancelResaleListing: async (f) => ({ listingId: (await spareResaleListing(f)).id }),
  eventResale: (f) => ({ eventId: f.eventA.id }),
  setEventResale: (f) => ({ input: { eventId: f.eventA.id, enabled: true, capPercent: 100, feePercent: 0 } }),
  markResalePayoutDone: async (f) => ({ listingId: (await spareResaleListing(f)).id }),
  retryResalePayout: async (f) => ({ listingId: (await spareResaleListing(f)).id }),
  undoRedemption: (f) => ({ issuedProductId: f.tickets[0].id }),
  updateBankAccount: (f) => ({ input: { id: f.account.id, cbu: "2850590940090418135201", holderName: "Productora de Prueba SRL", holderCuit: "30-71234567-1" } }),
  updateCoupon: (f) => ({ input: { id: f.coupon.id, percent: 15 } }),
  updateEmailTemplate: (f) => ({ input: { id: f.template.id, organizationId: f.orgA.id, name: "Cambiada", subject: "Otro asunto", body: "Hola" } }),
  updateEvent: (f) => ({ input: { id: f.eventA.id, description: "Cambiada" } }),
  updateEventDate: (f) => ({ input: { id: f.dateA.id, doorsAt: null } }),
  updateMenuItem: (f) => ({ input: { id: f.menuItem.id, stock: 50 } }),
  updateOrganization: (f) => ({ input: { id: f.orgA.id, description: "Cambiada" } }),
  updatePromoterGroup: (f) => ({ input: { groupId: f.group.id, organizationId: f.orgA.id, name: "Grupo cambiado" } }),
  updateTicketType: (f) => ({ input: { id: f.ticketA.id, description: "Cambiada" } }),
  updateUser: () => ({ firstName: "Cambiado" }),
  updateWebhookEndpoint: (f) => ({ input: { id: f.webhook.id, description: "Cambiado" } }),
  uploadBankTransferReceipt: (f) => ({ input: { billingId: f.transfer.billing.id, file: null } }),
  uploadImage: () => ({ file: null }),
  verifySecondFactor: () => ({ code: "123456" }),
  verifyEmail: () => ({ token: "no-existe-este-token" }),
};

const spares = new Map<string, string>();
/** A row of organization A for a call that uses one up: the last one while it is still there (refusals leave it), else a new one. */
async function spare(kind: string, table: string, create: () => Promise<{ id: string }>): Promise<{ id: string }> {
  const last = spares.get(kind);
  if (last && rowsOf(await (await getDb()).execute(sql`select 1 from ${sql.identifier(table)} where id = ${last}`)).length) return { id: last };
  const row = await create();
  spares.set(kind, row.id);
  return row;
}

async function spareBankAccount(f: Fixtures) {
  const { createBankAccount } = await import("#server/payouts/bank-accounts");
  return spare("bank", "bank_accounts", async () => createBankAccount(await withSecondFactor(f.a.ctx), { organizationId: f.orgA.id, cbu: buildCbu("285", "0590", String(Date.now() * 1000 + Math.floor(Math.random() * 1000)).slice(-13)), holderName: "Productora de Prueba SRL", holderCuit: "30-71234567-1" }));
}
/** An active listing of the buyer's first ticket in the official resale (docs/resale.md), written directly: the door may have used that ticket by then. */
async function spareResaleListing(f: Fixtures) {
  const { resaleListings } = await import("#server/db/schema");
  return spare("resale-listing", "resale_listings", async () => {
    const [row] = await (await getDb())
      .insert(resaleListings)
      .values({ organizationId: f.orgA.id, eventId: f.eventA.id, eventDateId: f.dateA.id, ticketTypeId: f.ticketA.id, issuedProductId: f.tickets[0].id, sellerUserId: f.buyer.id, sellerOrderId: f.paid.order.id, sellerBillingId: f.paid.billing.id, faceValue: 100, price: 100, payout: 100 })
      .returning();
    return row;
  });
}
async function spareTemplate(f: Fixtures) {
  const { createTemplate } = await import("#server/campaigns/templates");
  return spare("template", "email_templates", () => createTemplate(f.a.ctx, { organizationId: f.orgA.id, name: `Descartable ${randomTag(5)}`, subject: "Hola", body: "Hola" }));
}
async function spareGroup(f: Fixtures) {
  const { createPromoterGroup } = await import("#server/team/promoter-groups");
  return spare("group", "promoter_groups", () => createPromoterGroup(f.a.ctx, { organizationId: f.orgA.id, name: `Descartable ${randomTag(6)}` }));
}
async function spareWebhook(f: Fixtures) {
  const { createWebhookEndpoint } = await import("#server/webhooks/endpoints");
  return spare("webhook", "webhook_endpoints", async () => (await createWebhookEndpoint(f.a.ctx, { organizationId: f.orgA.id, url: `https://descartable-${randomTag(6)}.example.com/hooks`, events: ["order.paid"] })).endpoint);
}
/** A staff member of A (still staff: a role change makes the next call take a new one). */
async function spareMember(f: Fixtures, kind: string) {
  const last = spares.get(`member-${kind}`);
  if (last && rowsOf(await f.db.execute(sql`select 1 from memberships where organization_id = ${f.orgA.id} and user_id = ${last} and role = 'staff'`)).length) return { id: last };
  const user = await makeMember(f.orgA.id, "staff");
  spares.set(`member-${kind}`, user.id);
  return user;
}

/** A plain promoter of the spare group (not its lead). */
async function sparePromoter(f: Fixtures) {
  const last = spares.get("promoter");
  if (last && rowsOf(await f.db.execute(sql`select 1 from memberships where organization_id = ${f.orgA.id} and user_id = ${last} and role = 'promoter'`)).length) return { id: last };
  const { joinPromoterGroup } = await import("#server/promoters/membership");
  const user = await createTestUser({ nickname: `desc${randomTag(8)}` });
  await f.db.transaction((tx) => joinPromoterGroup(tx, { organizationId: f.orgA.id, groupId: f.spareGroup.id, userId: user.id, role: "promoter", now: new Date() }));
  spares.set("promoter", user.id);
  return user;
}

async function spareInvitation(f: Fixtures, kind: "team" | "promoter") {
  const db = await getDb();
  const pending = async () =>
    rowsOf<{ id: string }>(await db.execute(sql`select id from membership_invitations where organization_id = ${f.orgA.id} and revoked_at is null and accepted_at is null and (promoter_group_id is null) = ${kind === "team"} limit 1`))[0];
  const found = await pending();
  if (found) return found;
  const { inviteMember } = await import("#server/team/team");
  const { invitePromoter } = await import("#server/team/promoter-groups");
  const owner = await withSecondFactor(f.a.ctx);
  if (kind === "team") await inviteMember(owner, { organizationId: f.orgA.id, email: `equipo-${randomTag(6)}@example.com`, role: "operator" });
  else await invitePromoter(owner, { groupId: f.group.id, who: `rrpp-${randomTag(6)}@example.com` });
  return (await pending())!;
}

/** An authorised invoice of the paid purchase (one per billing and kind). */
async function authorisedInvoiceOf(f: Fixtures): Promise<string> {
  await f.db
    .insert(invoices)
    .values({ kind: "invoice", orderId: f.paid.order.id, billingId: f.paid.billing.id, environment: "homologacion", issuerCuit: "20111111112", pointOfSale: 1, letter: "B", voucherType: 6, number: 1, status: "authorised", total: 12_100, net: 10_000, vat: 2_100, receiverDocType: 96, receiverDocNumber: "30123456", receiverIvaCondition: 5, voucherDate: "20261128", cae: "76000000000001", caeDueDate: "2026-12-08" })
    .onConflictDoNothing();
  const [row] = rowsOf<{ id: string }>(await f.db.execute(sql`select id from invoices where billing_id = ${f.paid.billing.id} and kind = 'invoice'`));
  return row.id;
}

interface RouteCall {
  /** Values of the path's params by name ($slug, $couponId…); `default` for any other. */
  params: Record<string, string>;
  query?: Record<string, string>;
  form?: Record<string, string>;
}

/** The URL (and, for actions, the form) each route is called with: organization A's rows, and its id in the global filter. */
async function routeCalls(f: Fixtures, id: string, kind: "loader" | "action"): Promise<RouteCall> {
  const params: Record<string, string> = {
    default: NO_ROW,
    slug: f.eventA.slug,
    eventSlug: f.eventA.slug,
    orgSlug: f.orgA.slug,
    couponId: f.coupon.id,
    mapId: f.seatMap.id,
    offerId: f.waitOffer.id,
    billingId: f.paid.billing.id,
    orderId: f.paid.order.id,
    ticketId: f.tickets[1].id,
    eventId: f.eventA.id,
    nick: f.promoter.nickname ?? "nadie",
    extra: "x",
    status: "aprobado",
    token: "no-existe-este-token",
    receiptId: f.receipt.id,
    file: "no-existe.png",
    "*": "no-existe",
  };
  // Back-office pages get A in the global filter (creating an organization is about none).
  const inA = id.startsWith("organizacion") && id !== "organizacion.por-crear";
  const query: Record<string, string> = { ...(inA ? { organizationId: f.orgA.id, eventId: f.eventA.id } : {}), ...ROUTE_QUERIES[id] };
  if (id.startsWith("checkout.bank-transfer")) params.billingId = f.transfer.billing.id;
  // A wallet pass needs a ticket still valid and still the purchase's: earlier operations may have used, sent or voided tickets[1].
  if (id.startsWith("tickets.$billingId.wallet")) {
    const live = rowsOf<{ id: string }>(await f.db.execute(sql`select id from issued_products where order_id = ${f.paid.order.id} and status = 'redeemable' and not exists (select 1 from ticket_transfers tt where tt.issued_product_id = issued_products.id) order by created_at desc limit 1`));
    if (live[0]) params.ticketId = live[0].id;
  }
  // The invoice of our service charge needs one ARCA authorised (the matrix runs without ARCA: written as the issue job leaves it).
  if (id.startsWith("tickets.$billingId.factura")) params.invoiceId = await authorisedInvoiceOf(f);
  // Event B is the one with its virtual queue on (A buys without one).
  if (id.startsWith("fila.")) params.slug = f.eventB.slug;
  const form: Record<string, string> = { ...(await ROUTE_FORMS[id]?.(f)) };
  return { params, query, form: kind === "action" ? form : undefined };
}

/** More of the query string, where a page needs it to reach its data. */
const ROUTE_QUERIES: Record<string, Record<string, string>> = {
  "organizacion.informes_.descargar": { tipo: "ventas", formato: "csv" },
  "organizacion.generador-qr_.descargar": { link: "http://localhost:3000/eventos", formato: "svg" },
};

/** The form each action is posted (one representative write). */
const ROUTE_FORMS: Record<string, (f: Fixtures) => Record<string, string> | Promise<Record<string, string>>> = {
  "organizacion.cuentas-bancarias": (f) => ({ intent: "mark", id: f.account.id, forTicketTransfers: "on" }),
  "organizacion.metodos-de-pago": () => ({ intent: "disconnect" }),
  "organizacion.transferencias-bancarias": (f) => ({ intent: "reject", billingId: f.transfer.billing.id, reason: "No llegó la plata" }),
  "organizacion.relaciones-publicas.grupos": (f) => ({ intent: "update", groupId: f.group.id, name: "Grupo cambiado" }),
  "organizacion.relaciones-publicas.mi-grupo": (f) => ({ intent: "invite", groupId: f.group.id, who: `rrpp-${randomTag(6)}@example.com` }),
  "organizacion.operadores": () => ({ intent: "invite", email: `equipo-${randomTag(6)}@example.com`, role: "operator" }),
  "organizacion.webhooks": (f) => ({ intent: "pause", endpointId: f.webhook.id }),
  "organizacion.staff-pin": (f) => ({ intent: "revoke", eventId: f.eventA.id }),
  "organizacion.acreditaciones": (f) => ({ issuedProductId: f.tickets[0].id, reason: "Se equivocó de puerta" }),
  "organizacion.log-emails": (f) => ({ emailId: f.loggedEmail?.id ?? NO_ROW }),
  "organizacion.campanias-de-email_.plantillas": async (f) => ({ templateId: (await spareTemplate(f)).id }),
  "organizacion.detalle": (f) => ({ id: f.orgA.id, name: f.orgA.name, slug: f.orgA.slug, cuit: "30-71234567-1", contactEmail: "hola@productora.com.ar" }),
  "organizacion.campanias-de-email_.plantillas_.crear": () => ({ intent: "preview", subject: "Hola", body: "Hola {{nombre}}" }),
  "organizacion.cupones_.$couponId": (f) => ({ intent: "pause", id: f.coupon.id }),
  "organizacion.resumen-de-ventas_.$orderId": (f) => ({ intent: "approve", requestId: f.refundRequest.id }),
  "organizacion.evento.crear": (f) => ({
    organizationId: f.orgA.id, name: "Otra noche", description: "Otra noche para bailar.", category: "fiestas", venueName: "Club", venueAddress: "Calle 1", city: "Buenos Aires", province: "AR-CF",
    "dates[0].startsAt": inDays(40).slice(0, 16), "dates[0].endsAt": inDays(40.2).slice(0, 16), "ticketTypes[0].name": "General", "ticketTypes[0].price": "1000", "ticketTypes[0].stock": "10",
  }),
  "organizacion.cupones": (f) => ({ intent: "pause", couponId: f.coupon.id }),
  "organizacion.mapas": () => ({ intent: "create", name: `Sala ${randomTag(5)}`, front: "top", category: "General", sectionName: "Platea", rows: "1", seatsPerRow: "2", firstRowLabel: "A", numbering: "ltr" }),
  // A's map has no numbered seats (the event's seating stays valid): renaming it is one representative write.
  "organizacion.mapas_.$mapId": async (f) => ({ intent: "details", version: rowsOf<{ version: number }>(await f.db.execute(sql`select version from seat_maps where id = ${f.seatMap.id}`))[0]!.version.toString(), name: f.seatMap.plan.name, front: "top" }),
  "organizacion.mis-eventos": (f) => ({ intent: "resume", eventId: f.eventA.id }),
  "organizacion.menu": (f) => ({ intent: "pause", itemId: f.menuItem.id }),
  "organizacion.invitaciones": (f) => ({ intent: "resend", orderId: f.invitation.id }),
  "organizacion.campanias-de-email": (f) => ({ intent: "cancel", id: f.campaign.id, campaignId: f.campaign.id }),
  "organizacion.marketing-pixel": (f) => ({ eventId: f.eventA.id, pixelId: "1234567890" }),
  "organizacion.agregar-entradas": (f) => ({ id: f.ticketA.id, ticketTypeId: f.ticketA.id, quantity: "1" }),
  "organizacion.condiciones-de-servicio.$eventId": () => ({ accept: "on" }),
  "organizacion.extracciones_.crear": (f) => ({ bankAccountId: f.account.id, amount: "1" }),
  "admin.extracciones": (f) => ({ intent: "approve", id: f.withdrawal.id, withdrawalId: f.withdrawal.id }),
  // An authorised invoice: the team's press is refused as not rejected (CONFLICT), anyone else never gets that far.
  "admin.facturas": async (f) => ({ intent: "retry", invoiceId: await authorisedInvoiceOf(f) }),
  "cuenta.imperson": (f) => ({ email: f.operator.email }),
  "cuenta.lista-de-espera": (f) => ({ entryId: f.waitEntry.id }),
  "lista-de-espera.$slug": (f) => ({ choice: `${f.dateA.id}:${f.ticketA.id}`, quantity: "1" }),
  "organizacion.eventos.$slug.lista-de-espera": () => ({ offerMinutes: "30" }),
  "organizacion.eventos.$slug.qr-dinamico": () => ({ enabled: "on", staticCodeRevealHours: "12" }),
  // Event A sells general admission: a member who may gets past the permission check to the form's answer ("no tiene asientos numerados").
  "organizacion.eventos.$slug.asientos": (f) => ({ intent: "block", eventDateId: f.dateA.id, seats: "A1" }),
};
