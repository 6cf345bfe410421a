import { builder } from "./builder";
import { given, isoDate } from "./scalars";
import * as queue from "#server/queue/queue";
import type { EventQueueView, QueuePlaceView } from "#server/queue/queue";

/**
 * The virtual queue of an on-sale (docs/queue.md): the organizer's settings
 * and counts, and a buyer's place. The same domain functions as the
 * back-office page and `/fila/{slug}`. While an event's queue is on, buying
 * without an admission (createOrder, previewOrder) answers QUEUE_REQUIRED
 * with the event's slug in `extensions.reason`; over GraphQL the admission
 * is the account's own (no cookie).
 */

const QueuePlaceStatusEnum = builder.enumType("QueuePlaceStatus", {
  values: {
    WAITING: { description: "In line (before the opening: waiting for the draw)." },
    ADMITTED: { description: "Your turn: buy before admissionExpiresAt." },
    SOLD_OUT: { description: "The event sold out while waiting (it may come back if held tickets are released)." },
    CLOSED: { description: "No longer in line: bought, admission expired unused, or the queue was turned off (closedReason)." },
  } as const,
});

const QueueClosedReasonEnum = builder.enumType("QueueClosedReason", { values: ["BOUGHT", "EXPIRED", "QUEUE_OFF"] as const });
const QueuePaceEnum = builder.enumType("QueuePace", { values: ["AUTOMATIC", "PER_MINUTE"] as const });

const QueuePlace = builder.objectRef<QueuePlaceView>("QueuePlace").implement({
  description: "A buyer's place in an event's virtual queue (one per account and event).",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false, description: "The draw orders early places by HMAC-SHA256(drawSeed, id)." }),
    eventId: t.exposeID("eventId", { nullable: false }),
    eventSlug: t.exposeString("eventSlug", { nullable: false }),
    status: t.field({ type: QueuePlaceStatusEnum, nullable: false, resolve: (p) => p.status }),
    closedReason: t.field({ type: QueueClosedReasonEnum, resolve: (p) => p.closedReason }),
    position: t.int({ description: "Place in the whole line (1 = first); null before the opening's draw.", resolve: (p) => p.position }),
    ahead: t.int({ description: "People still waiting ahead; null before the draw.", resolve: (p) => p.ahead }),
    estimatedWaitSeconds: t.int({ description: "From the pace of recent admissions; null when there is no honest estimate.", resolve: (p) => p.estimatedWaitSeconds }),
    admissionExpiresAt: t.string({ resolve: (p) => isoDate(p.admissionExpiresAt) }),
    opensAt: t.string({ nullable: false, resolve: (p) => isoDate(p.opensAt)! }),
    drawCommitment: t.exposeString("drawCommitment", { nullable: false, description: "SHA-256 (hex) of drawSeed, published before the opening." }),
    drawSeed: t.string({ description: "Revealed at the opening; null before.", resolve: (p) => p.drawSeed }),
    paused: t.exposeBoolean("paused", { nullable: false }),
    refreshSeconds: t.exposeInt("refreshSeconds", { nullable: false, description: "How often to ask again." }),
  }),
});

const EventQueue = builder.objectRef<EventQueueView>("EventQueue").implement({
  description: "An event's virtual queue for its organizer.",
  fields: (t) => ({
    eventId: t.exposeID("eventId", { nullable: false }),
    enabled: t.exposeBoolean("enabled", { nullable: false }),
    opensAt: t.string({ nullable: false, resolve: (q) => isoDate(q.opensAt)! }),
    admissionMinutes: t.exposeInt("admissionMinutes", { nullable: false }),
    admitPerMinute: t.int({ description: "Null: the automatic pace (as many as the stock left can serve).", resolve: (q) => q.admitPerMinute }),
    pace: t.field({ type: QueuePaceEnum, nullable: false, resolve: (q) => q.pace }),
    paused: t.exposeBoolean("paused", { nullable: false }),
    soldOut: t.exposeBoolean("soldOut", { nullable: false }),
    drawCommitment: t.exposeString("drawCommitment", { nullable: false }),
    drawSeed: t.string({ description: "Null until the opening's draw.", resolve: (q) => q.drawSeed }),
    drawnAt: t.string({ resolve: (q) => isoDate(q.drawnAt) }),
    waiting: t.exposeInt("waiting", { nullable: false }),
    admitted: t.exposeInt("admitted", { nullable: false, description: "Admitted now (not bought yet, admission not expired)." }),
    bought: t.exposeInt("bought", { nullable: false }),
    left: t.exposeInt("left", { nullable: false, description: "Admissions that expired unused." }),
    total: t.exposeInt("total", { nullable: false }),
  }),
});

const SetEventQueueInput = builder.inputType("SetEventQueueInput", {
  fields: (t) => ({
    eventId: t.id({ required: true }),
    enabled: t.boolean({ required: true }),
    opensAt: t.string({ required: true, description: "The on-sale (ISO 8601)." }),
    admitPerMinute: t.int({ description: "At most this many admitted per minute; null or absent: automatic." }),
    admissionMinutes: t.int({ description: "How long an admission lasts (1–120, default 10)." }),
  }),
});

builder.queryFields((t) => ({
  eventQueue: t.field({
    type: EventQueue,
    description: "The event's virtual queue with its counts; null when it never had one. Needs sales:read.",
    args: { eventId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => queue.eventQueue(ctx, String(args.eventId)),
  }),
  queuePlace: t.field({
    type: QueuePlace,
    description: "The signed-in account's place in the event's queue; null when it has none. Answered from memory: cheap to poll at refreshSeconds.",
    args: { eventSlug: t.arg.string({ required: true }) },
    resolve: (_root, args, { ctx }) => queue.queuePlace(ctx, args.eventSlug),
  }),
}));

builder.mutationFields((t) => ({
  setEventQueue: t.field({
    type: EventQueue,
    nullable: false,
    description: "Turns the event's virtual queue on or off and sets the opening, the admission's length and the pace. Needs events:manage.",
    args: { input: t.arg({ type: SetEventQueueInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => queue.setEventQueue(ctx, given({ ...input, eventId: String(input.eventId) })),
  }),
  pauseEventQueue: t.field({
    type: EventQueue,
    nullable: false,
    description: "Stops admitting people (the line keeps its order). Needs events:manage.",
    args: { eventId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => queue.pauseEventQueue(ctx, String(args.eventId)),
  }),
  resumeEventQueue: t.field({
    type: EventQueue,
    nullable: false,
    args: { eventId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => queue.resumeEventQueue(ctx, String(args.eventId)),
  }),
  joinQueue: t.field({
    type: QueuePlace,
    nullable: false,
    description: "A place in the event's queue for the signed-in account (one per account and event: asking again returns the same place). New places are rate-limited per IP.",
    args: { eventSlug: t.arg.string({ required: true }) },
    resolve: (_root, args, { ctx }) => queue.joinQueue(ctx, args.eventSlug),
  }),
}));
