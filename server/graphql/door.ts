import { liveScanLine, verdictDetail, verdictTitle } from "#common/door";
import { parseCookies } from "#server/auth/cookies";
import { type DomainError, isDomainError } from "#server/errors";
import * as access from "#server/door/access";
import { redeemAtDoor, syncDoorScans, type DoorAnswer } from "#server/door/redeem";
import { searchAtDoor, type DoorSearchHit } from "#server/door/search";
import { doorManifest } from "#server/door/manifest";
import * as live from "#server/door/live";
import * as accreditations from "#server/door/accreditations";
import { builder, type GraphQLContext } from "./builder";
import { isoDate } from "./scalars";

/**
 * The door for integrators and for the door screen once hydrated: the same
 * domain functions as /vivos/acreditacion/{slug}. A door is opened by a
 * member signed in, by `staffPin`, or by `doorSession` (from openDoor, or the
 * door screen's cookie).
 */

/**
 * The device a PIN attempt counts against (decision 155), as the door page does: the one the request names,
 * else the door screen's own cookie.
 */
function deviceOf(gql: GraphQLContext, deviceId?: string | null): string | null {
  return deviceId ?? parseCookies(gql.request.headers.get("cookie"))[access.DOOR_DEVICE_COOKIE] ?? null;
}

function doorOf(gql: GraphQLContext, input: { eventSlug: string; staffPin?: string | null; doorSession?: string | null; deviceId?: string | null }) {
  const cookie = parseCookies(gql.request.headers.get("cookie"))[access.doorSessionCookieName(input.eventSlug)];
  return access.openDoor(gql.ctx, { slug: input.eventSlug, pin: input.staffPin ?? null, session: input.doorSession ?? cookie ?? null, deviceId: deviceOf(gql, input.deviceId) });
}

const DoorAnswerRef = builder.objectRef<DoorAnswer & { now: Date }>("DoorAnswer").implement({
  description: "What the door answers for one scan.",
  fields: (t) => ({
    scanId: t.exposeString("scanId", { nullable: false, description: "The scan's id (yours, or ours when you sent none): sending it again changes nothing." }),
    outcome: t.exposeString("outcome", {
      nullable: false,
      description: "admitted, already_in, conflict (two doors let it in offline), voided (voided or refunded), other_event, other_date, wrong_place (a menu item at the door, or a ticket at the bar), expired_code (a live QR code more than one 15-second step off, i.e. a screenshot, or a live-QR ticket's static code before its reveal time) or unknown (unknown or forged code).",
    }),
    admitted: t.boolean({ nullable: false, resolve: (a) => a.outcome === "admitted" }),
    title: t.string({ nullable: false, description: "The screen's big line, in Spanish (\"Adelante\", \"Ya ingresó\"…).", resolve: (a) => verdictTitle(a) }),
    detail: t.string({ nullable: false, description: "Why, in Spanish (\"Ya ingresó a las 22:14 por Puerta 2.\").", resolve: (a) => verdictDetail(a, a.now) }),
    holderName: t.string({ resolve: (a) => a.holderName ?? null }),
    holderDocument: t.string({
      description: "The holder's document as staff read it (\"DNI 30.123.456\") when the event's tickets are named (Entradas nominativas): ask for an ID that matches. Null otherwise.",
      resolve: (a) => a.holderDocument ?? null,
    }),
    ticketTypeName: t.string({ resolve: (a) => a.ticketTypeName ?? null }),
    seatLabel: t.string({
      description: "Reserved seating: the seat as staff read it (\"Platea · Fila F · Asiento 12\"), so they send the person to it. Null for general admission.",
      resolve: (a) => a.seatLabel ?? null,
    }),
    eventDateStartsAt: t.string({ description: "The date the ticket is for.", resolve: (a) => isoDate(a.eventDateStartsAt) }),
    redeemedAt: t.string({ description: "When it got in (already_in, conflict).", resolve: (a) => isoDate(a.redeemedAt) }),
    redeemedDoor: t.string({ description: "Through which door it got in.", resolve: (a) => a.redeemedDoor ?? null }),
    otherEventName: t.string({ description: "For other_event.", resolve: (a) => a.otherEventName ?? null }),
    productKind: t.string({ description: "ticket or menu: what the code is (wrong_place says where it goes).", resolve: (a) => a.productKind ?? null }),
  }),
});

const DoorSearchHitRef = builder.objectRef<DoorSearchHit>("DoorSearchHit").implement({
  fields: (t) => ({
    code: t.exposeString("code", { nullable: false, description: "Send it to redeemProduct to let the person in." }),
    holderName: t.exposeString("holderName", { nullable: false }),
    holderDocument: t.exposeString("holderDocument", { description: "The holder's document (\"DNI 30.123.456\") for a named ticket, else null." }),
    ticketTypeName: t.exposeString("ticketTypeName", { nullable: false }),
    seatLabel: t.exposeString("seatLabel", { description: "Reserved seating: \"Platea · Fila F · Asiento 12\". Null for general admission." }),
    orderCode: t.exposeString("orderCode", { nullable: false }),
    status: t.exposeString("status", { nullable: false, description: "redeemable, redeemed or voided." }),
    redeemedAt: t.string({ resolve: (h) => isoDate(h.redeemedAt) }),
    redeemedDoor: t.exposeString("redeemedDoor"),
  }),
});

const DoorPinRef = builder.objectRef<access.DoorPinView>("DoorPin").implement({
  fields: (t) => ({
    pin: t.exposeString("pin", { nullable: false, description: `${access.DOOR_PIN_LENGTH} digits.` }),
    createdAt: t.string({ nullable: false, resolve: (p) => isoDate(p.createdAt)! }),
  }),
});

const DoorSessionRef = builder.objectRef<{ token: string; expiresAt: Date; eventName: string }>("DoorSession").implement({
  fields: (t) => ({
    token: t.exposeString("token", { nullable: false, description: "Send it as doorSession instead of the PIN. Ends when the PIN is rotated or revoked, or hours after the event's last date." }),
    expiresAt: t.string({ nullable: false, resolve: (s) => isoDate(s.expiresAt)! }),
    eventName: t.exposeString("eventName", { nullable: false }),
  }),
});


const RedeemProductInput = builder.inputType("RedeemProductInput", {
  fields: (t) => ({
    eventSlug: t.string({ required: true }),
    staffPin: t.string({ description: "The event's door PIN (staff without an account). Wrong PINs are limited per event and per address." }),
    doorSession: t.string({ description: "A session from openDoor." }),
    code: t.string({ required: true, description: "What the QR carries (TRB1.… static, or TLQ1.<ticketRef>.<8 digits> live), the ticket's code, or the 10-character code printed under the QR." }),
    door: t.string({ description: "Where the device stands (\"Puerta 1\")." }),
    deviceId: t.string(),
    scanId: t.string({ description: "Your id for this scan: resending it is a no-op that answers the same." }),
    eventDateId: t.id({ description: "The date the door admits; default the event's date of tonight." }),
    mode: t.string({ description: "\"door\" (default) admits tickets; \"bar\" serves the event's menu items. Each answers wrong_place for the other's codes." }),
  }),
});

const OfflineScanInput = builder.inputType("OfflineScanInput", {
  fields: (t) => ({
    scanId: t.string({ required: true }),
    code: t.string({ required: true }),
    scannedAt: t.string({ required: true, description: "ISO 8601, the device's clock." }),
    acceptedOffline: t.boolean({ required: true, description: "The device let the person in." }),
    door: t.string(),
  }),
});

const SyncDoorScansInput = builder.inputType("SyncDoorScansInput", {
  fields: (t) => ({
    eventSlug: t.string({ required: true }),
    staffPin: t.string({ description: "The event's door PIN (staff without an account). Wrong PINs are limited per event and per address." }),
    doorSession: t.string({ description: "A session from openDoor." }),
    deviceId: t.string({ required: true }),
    scans: t.field({ type: [OfflineScanInput], required: true, description: "Up to 500, any order." }),
    mode: t.string({ description: "\"door\" (default) or \"bar\", as in redeemProduct." }),
  }),
});

const SignedManifest = builder.objectRef<{ payload: string; signature: string }>("DoorManifest").implement({
  description: "A door manifest: JSON text (`payload`) and its ECDSA P-256 / SHA-256 signature (`signature`, base64url, IEEE P1363), verifiable with the public key the door page carries.",
  fields: (t) => ({
    payload: t.exposeString("payload", { nullable: false }),
    signature: t.exposeString("signature", { nullable: false }),
  }),
});

builder.queryFields((t) => ({
  doorManifest: t.field({
    type: SignedManifest,
    nullable: false,
    description: "What a door device needs to judge codes offline: keyed hashes of the event's tickets (never the codes), holder, type, date and state. With `since` (the previous manifest's cursor) only what changed.",
    args: { eventSlug: t.arg.string({ required: true }), staffPin: t.arg.string(), doorSession: t.arg.string(), since: t.arg.string(), mode: t.arg.string({ description: "\"door\" (default): tickets; \"bar\": menu items." }) },
    resolve: async (_root, args, gql) => doorManifest(gql.ctx, await doorOf(gql, args), { since: args.since, mode: args.mode === "bar" ? "bar" : "door" }),
  }),
  doorSearch: t.field({
    type: [DoorSearchHitRef],
    nullable: false,
    description: "The door's manual search: this event's tickets by holder name, DNI or order code (3 characters at least, 20 results).",
    args: { eventSlug: t.arg.string({ required: true }), query: t.arg.string({ required: true }), staffPin: t.arg.string(), doorSession: t.arg.string(), mode: t.arg.string({ description: "\"door\" (default): tickets; \"bar\": menu items." }) },
    resolve: async (_root, args, gql) => searchAtDoor(gql.ctx, await doorOf(gql, args), args.query, args.mode === "bar" ? "bar" : "door"),
  }),
  doorPin: t.field({
    type: DoorPinRef,
    description: "The event's door PIN, or null when it has none. Owners and admins.",
    args: { eventId: t.arg.id({ required: true }) },
    resolve: (_root, { eventId }, { ctx }) => access.doorPinOf(ctx, String(eventId)),
  }),
}));

builder.mutationFields((t) => ({
  redeemProduct: t.field({
    type: DoorAnswerRef,
    nullable: false,
    description: "Judges a scanned code at the event's door and lets the ticket in once: two devices at the same instant get one admitted and one already_in.",
    args: { input: t.arg({ type: RedeemProductInput, required: true }) },
    resolve: async (_root, { input }, gql) => {
      const door = await doorOf(gql, input);
      const answer = await redeemAtDoor(gql.ctx, door, { code: input.code, door: input.door, deviceId: input.deviceId, scanId: input.scanId, eventDateId: input.eventDateId == null ? null : String(input.eventDateId), mode: input.mode === "bar" ? "bar" : "door" });
      return { ...answer, now: gql.ctx.now };
    },
  }),
  syncDoorScans: t.field({
    type: [DoorAnswerRef],
    nullable: { list: false, items: true },
    description:
      "Applies a device's offline queue, idempotently (each scanId once) and first scan wins by scan time; answers in the order sent. A scan whose scannedAt is impossible (unreadable, or before the door opened for its date: see docs/door.md) answers null in its place with an error at its index (BAD_USER_INPUT, reason SCAN_TIME_INVALID or SCAN_TIME_BEFORE_DOOR_OPENED): sending it again is refused again, and the rest of the queue is judged as usual.",
    args: { input: t.arg({ type: SyncDoorScansInput, required: true }) },
    resolve: async (_root, { input }, gql) => {
      const door = await doorOf(gql, input);
      const mode = input.mode === "bar" ? "bar" : "door";
      const answers = await syncDoorScans(gql.ctx, door, input.scans.map((s) => ({ ...s, deviceId: input.deviceId, mode })));
      // A refused scan is its error in its place: GraphQL answers null there and reports the error at that index.
      // (An Error as a list item, which both executors read so; a rejected promise there confuses graphql-jit.)
      return answers.map((a) => ("error" in a ? a.error : { ...a, now: gql.ctx.now })) as (DoorAnswer & { now: Date })[];
    },
  }),
  openDoor: t.field({
    type: DoorSessionRef,
    nullable: false,
    description: "Trades the event's door PIN for a door session (so devices do not send the PIN with every scan).",
    args: {
      eventSlug: t.arg.string({ required: true }),
      staffPin: t.arg.string({ required: true }),
      deviceId: t.arg.string({ description: "The device's own id (8 to 64 letters, digits, - or _): wrong PINs are counted per device and event too, so one device's typos lock only that device first. Default: the door screen's cookie." }),
    },
    resolve: async (_root, args, gql) => {
      const opened = await access.unlockDoor(gql.ctx, { slug: args.eventSlug, pin: args.staffPin, deviceId: deviceOf(gql, args.deviceId) });
      return { token: opened.token, expiresAt: opened.expiresAt, eventName: opened.access.event.name };
    },
  }),
  rotateDoorPin: t.field({
    type: DoorPinRef,
    nullable: false,
    description: "A new door PIN for the event; doors opened with the previous one close. Owners and admins.",
    args: { eventId: t.arg.id({ required: true }) },
    resolve: (_root, { eventId }, { ctx }) => access.rotateDoorPin(ctx, String(eventId)),
  }),
  revokeDoorPin: t.field({
    type: "Boolean",
    nullable: false,
    description: "Removes the event's door PIN; doors opened with it close. Owners and admins.",
    args: { eventId: t.arg.id({ required: true }) },
    resolve: async (_root, { eventId }, { ctx }) => {
      await access.revokeDoorPin(ctx, String(eventId));
      return true;
    },
  }),
}));

// ---------------------------------------------------------------------------
// The live view (`/vivos/{slug}`): a query, and the same as a subscription
// over server-sent events (one recomputation per change, shared by every watcher).

const LiveCount = builder.objectRef<{ name?: string; nick?: string; door?: string; sold?: number; entered: number }>("LiveCount").implement({
  fields: (t) => ({
    label: t.string({ nullable: false, description: "Ticket type name, promoter nick or door.", resolve: (c) => c.name ?? c.nick ?? c.door ?? "" }),
    sold: t.int({ description: "Tickets sold and not voided (not for doors).", resolve: (c) => c.sold ?? null }),
    entered: t.exposeInt("entered", { nullable: false }),
  }),
});

const LiveSlot = builder.objectRef<live.LiveNight["perQuarterHour"][number]>("LiveSlot").implement({
  fields: (t) => ({
    at: t.string({ nullable: false, description: "Start of the 15 minutes.", resolve: (s) => isoDate(s.at)! }),
    entered: t.exposeInt("entered", { nullable: false }),
  }),
});

const LiveScan = builder.objectRef<live.LiveNight["latestScans"][number]>("LiveScan").implement({
  fields: (t) => ({
    at: t.string({ nullable: false, resolve: (s) => isoDate(s.at)! }),
    door: t.exposeString("door", { nullable: false }),
    outcome: t.exposeString("outcome", { nullable: false }),
    holderName: t.exposeString("holderName"),
    ticketTypeName: t.exposeString("ticketTypeName", { description: "The ticket type, or at the bar the menu item." }),
    productKind: t.exposeString("productKind", { description: "ticket (the door) or menu (the bar); null when the code was no product of this event." }),
    offline: t.exposeBoolean("offline", { nullable: false }),
    line: t.string({
      nullable: false,
      description: "What happened, in Spanish: \"Ingresó · Ana Peña\", \"Ya ingresó · Ana Peña\", \"Entregada · Fernet con coca · Ana Peña\", \"Ya se entregó · Fernet con coca\".",
      resolve: (s) => s.line,
    }),
    seatLabel: t.exposeString("seatLabel", { description: "The ticket's numbered seat, in Spanish (\"Platea · Fila F · Asiento 12\"); null for general admission." }),
  }),
});

const LiveNightRef = builder.objectRef<live.LiveNight>("LiveNight").implement({
  description: "Entries against tickets sold for the event's date of tonight.",
  fields: (t) => ({
    eventName: t.string({ nullable: false, resolve: (n) => n.event.name }),
    eventSlug: t.string({ nullable: false, resolve: (n) => n.event.slug }),
    eventDateStartsAt: t.string({ resolve: (n) => isoDate(n.eventDateStartsAt) }),
    updatedAt: t.string({ nullable: false, resolve: (n) => isoDate(n.updatedAt)! }),
    sold: t.exposeInt("sold", { nullable: false }),
    entered: t.exposeInt("entered", { nullable: false }),
    ticketTypes: t.field({ type: [LiveCount], nullable: false, resolve: (n) => n.ticketTypes }),
    bar: t.field({ type: [LiveCount], nullable: false, description: "The menu at the bar: per item, units sold and served (entered).", resolve: (n) => n.bar }),
    doors: t.field({ type: [LiveCount], nullable: false, resolve: (n) => n.doors }),
    promoters: t.field({ type: [LiveCount], nullable: false, description: "By referral nick.", resolve: (n) => n.promoters }),
    perQuarterHour: t.field({ type: [LiveSlot], nullable: false, resolve: (n) => n.perQuarterHour }),
    latestScans: t.field({ type: [LiveScan], nullable: false, description: "The last 15, newest first.", resolve: (n) => n.latestScans }),
    conflicts: t.field({ type: [LiveScan], nullable: false, description: "Tickets two doors let in offline.", resolve: (n) => n.conflicts.map((c) => ({ ...c, outcome: "conflict" as const, productKind: "ticket" as const, offline: true, line: liveScanLine({ ...c, outcome: "conflict", productKind: "ticket" }) })) }),
  }),
});

builder.queryFields((t) => ({
  liveNight: t.field({
    type: LiveNightRef,
    nullable: false,
    description: "The night's entries for the team (members whose role works doors).",
    args: { eventSlug: t.arg.string({ required: true }) },
    resolve: (_root, { eventSlug }, { ctx }) => live.liveNight(ctx, eventSlug),
  }),
}));

/**
 * The stream's values, and the domain error that ends it (access gone) as its last value, so the client gets
 * it as a GraphQL error with its code before the stream completes (a stream that rejects would just break).
 */
function endingWithDomainError<T>(stream: AsyncIterableIterator<T>): AsyncIterableIterator<T | DomainError> {
  let ended = false;
  const iterator: AsyncIterableIterator<T | DomainError> = {
    async next() {
      if (ended) return { value: undefined, done: true };
      try {
        return await stream.next();
      } catch (error) {
        if (!isDomainError(error)) throw error;
        ended = true;
        await stream.return?.();
        return { value: error, done: false };
      }
    },
    async return() {
      ended = true;
      await stream.return?.();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

builder.subscriptionFields((t) => ({
  liveNight: t.field({
    type: LiveNightRef,
    nullable: false,
    description: `liveNight now and again after every scan (at most once a second), over server-sent events. Access is checked again before every update and every ${live.LIVE_RECHECK_MS / 1000} s: when it ends (removed from the team, a role without doors, logged out) a last event carries the error (FORBIDDEN or UNAUTHENTICATED) and the stream completes. One account holds at most ${live.LIVE_STREAMS_PER_ACCOUNT} open at once; past it, TOO_MANY_REQUESTS.`,
    args: { eventSlug: t.arg.string({ required: true }) },
    subscribe: async (_root, { eventSlug }, { ctx, request }) => endingWithDomainError(await live.openLiveNight(ctx, eventSlug, { signal: request.signal })),
    resolve: (value) => {
      if (isDomainError(value)) throw value;
      return value;
    },
  }),
}));

// ---------------------------------------------------------------------------
// Back office: who entered (`/organizacion/acreditaciones`).

const AccreditationRef = builder.objectRef<accreditations.Accreditation>("Accreditation").implement({
  fields: (t) => ({
    issuedProductId: t.exposeID("issuedProductId", { nullable: false }),
    holderName: t.exposeString("holderName", { nullable: false }),
    ticketTypeName: t.exposeString("ticketTypeName", { nullable: false }),
    seatLabel: t.string({ description: "Reserved seating: \"Platea · Fila F · Asiento 12\". Null for general admission.", resolve: (a) => accreditations.accreditationSeat(a) }),
    orderCode: t.exposeString("orderCode", { nullable: false }),
    eventName: t.exposeString("eventName", { nullable: false }),
    eventDateStartsAt: t.string({ nullable: false, resolve: (a) => isoDate(a.eventDateStartsAt)! }),
    redeemedAt: t.string({ nullable: false, resolve: (a) => isoDate(a.redeemedAt)! }),
    door: t.exposeString("door"),
    deviceId: t.exposeString("deviceId"),
    scannedBy: t.exposeString("scannedBy", { description: "The member's name, \"PIN de puerta\" for staff without an account, or null." }),
    offline: t.exposeBoolean("offline", { nullable: false }),
  }),
});

const AccreditationList = builder.objectRef<{ items: accreditations.Accreditation[]; total: number; page: number; limit: number }>("AccreditationList").implement({
  fields: (t) => ({
    items: t.field({ type: [AccreditationRef], nullable: false, resolve: (l) => l.items }),
    total: t.exposeInt("total", { nullable: false }),
    page: t.exposeInt("page", { nullable: false, description: "From 0." }),
    limit: t.exposeInt("limit", { nullable: false }),
  }),
});

builder.queryFields((t) => ({
  accreditations: t.field({
    type: AccreditationList,
    nullable: false,
    description: "Who entered, newest first, optionally of one event or date, searched by holder, order code or door. Needs sales:read. Paged: page from 0, limit 1–100 (default 50).",
    args: { organizationId: t.arg.id({ required: true }), eventId: t.arg.id(), eventDateId: t.arg.id(), query: t.arg.string(), page: t.arg.int(), limit: t.arg.int() },
    resolve: (_root, args, { ctx }) =>
      accreditations.listAccreditations(ctx, {
        organizationId: String(args.organizationId),
        eventId: args.eventId == null ? null : String(args.eventId),
        eventDateId: args.eventDateId == null ? null : String(args.eventDateId),
        query: args.query,
        page: args.page,
        limit: args.limit,
      }),
  }),
}));

builder.mutationFields((t) => ({
  undoRedemption: t.field({
    type: "Boolean",
    nullable: false,
    description: "Undoes an entry: the ticket can enter again. Owners and admins; recorded in the audit log. CONFLICT when it had not entered.",
    args: { issuedProductId: t.arg.id({ required: true }), reason: t.arg.string() },
    resolve: async (_root, args, { ctx }) => {
      await accreditations.undoRedemption(ctx, { issuedProductId: String(args.issuedProductId), reason: args.reason });
      return true;
    },
  }),
}));
