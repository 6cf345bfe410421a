import type { WebhookAttemptRow } from "#server/db/schema";
import { builder } from "./builder";
import { given, isoDate } from "./scalars";
import * as webhooks from "#server/webhooks/endpoints";
import type { WebhookDeliveryView, WebhookEndpointView } from "#server/webhooks/endpoints";

/** Outgoing webhooks for integrators: the same domain functions as /organizacion/webhooks (docs/webhooks.md). Owners and admins (organization:manage). */

const WebhookEndpoint = builder.objectRef<WebhookEndpointView>("WebhookEndpoint").implement({
  description:
    "A URL of the organization that receives signed POSTs for the events it wants. The signing secret is only returned by createWebhookEndpoint and rotateWebhookSecret.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    organizationId: t.exposeID("organizationId", { nullable: false }),
    url: t.exposeString("url", { nullable: false }),
    description: t.exposeString("description", { nullable: false, description: '"" when none was given.' }),
    events: t.exposeStringList("events", { nullable: false, description: "order.paid, order.refunded, ticket.redeemed, bank_transfer.approved and/or ticket.resold." }),
    active: t.exposeBoolean("active", { nullable: false, description: "false: paused, nothing is sent to it." }),
    createdAt: t.string({ nullable: false, resolve: (e) => isoDate(e.createdAt)! }),
    updatedAt: t.string({ nullable: false, resolve: (e) => isoDate(e.updatedAt)! }),
  }),
});

const WebhookEndpointSecret = builder.objectRef<{ endpoint: WebhookEndpointView; secret: string }>("WebhookEndpointSecret").implement({
  description: "An endpoint with its signing secret in clear: returned once, store it (we keep it encrypted and never show it again).",
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpoint, nullable: false, resolve: (r) => r.endpoint }),
    secret: t.exposeString("secret", { nullable: false, description: "whsec_…: the HMAC-SHA256 key of Tribuna-Signature." }),
  }),
});

const WebhookAttempt = builder.objectRef<WebhookAttemptRow>("WebhookAttempt").implement({
  description: "One HTTP attempt of a delivery.",
  fields: (t) => ({
    statusCode: t.exposeInt("statusCode", { description: "The receiver's HTTP status; null when it did not answer (network error, 10-second timeout)." }),
    durationMs: t.exposeInt("durationMs", { nullable: false }),
    error: t.exposeString("error", { description: "Why it failed (Spanish, short); null when delivered." }),
    replay: t.exposeBoolean("replay", { nullable: false, description: "true: sent by replayWebhookDelivery." }),
    attemptedAt: t.string({ nullable: false, resolve: (a) => isoDate(a.attemptedAt)! }),
  }),
});

const WebhookDelivery = builder.objectRef<WebhookDeliveryView>("WebhookDelivery").implement({
  description: "One event for one endpoint. Its id is the Tribuna-Webhook-Id (and the body's id) of every attempt and replay.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    endpointId: t.exposeID("endpointId", { nullable: false }),
    endpointUrl: t.exposeString("endpointUrl", { nullable: false }),
    eventType: t.exposeString("eventType", { nullable: false }),
    status: t.exposeString("status", { nullable: false, description: "pending (retrying), delivered or failed (retries ran out)." }),
    attempts: t.exposeInt("attempts", { nullable: false }),
    lastStatusCode: t.exposeInt("lastStatusCode"),
    lastError: t.exposeString("lastError"),
    body: t.exposeString("body", { nullable: false, description: "The exact JSON sent." }),
    createdAt: t.string({ nullable: false, resolve: (d) => isoDate(d.createdAt)! }),
    deliveredAt: t.string({ resolve: (d) => isoDate(d.deliveredAt) }),
    failedAt: t.string({ resolve: (d) => isoDate(d.failedAt) }),
    attemptLog: t.field({ type: [WebhookAttempt], nullable: false, description: "Every attempt, oldest first.", resolve: (d) => d.attemptLog }),
  }),
});

const WebhookDeliveryList = builder.objectRef<Awaited<ReturnType<typeof webhooks.listWebhookDeliveries>>>("WebhookDeliveryList").implement({
  fields: (t) => ({
    items: t.field({ type: [WebhookDelivery], nullable: false, resolve: (l) => l.items }),
    total: t.exposeInt("total", { nullable: false }),
    page: t.exposeInt("page", { nullable: false, description: "From 0." }),
    limit: t.exposeInt("limit", { nullable: false }),
  }),
});

const CreateWebhookEndpointInput = builder.inputType("CreateWebhookEndpointInput", {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    url: t.string({ required: true, description: "https://, to a public internet address (private, loopback and link-local ones are refused, also when a name resolves to one)." }),
    description: t.string({ description: "Up to 200 characters." }),
    events: t.stringList({ required: true, description: "At least one of order.paid, order.refunded, ticket.redeemed, bank_transfer.approved, ticket.resold." }),
  }),
});

const UpdateWebhookEndpointInput = builder.inputType("UpdateWebhookEndpointInput", {
  description: "Only the fields given change.",
  fields: (t) => ({
    id: t.id({ required: true }),
    url: t.string(),
    description: t.string(),
    events: t.stringList(),
    active: t.boolean({ description: "false pauses it, true resumes it." }),
  }),
});

builder.queryFields((t) => ({
  webhookEndpoints: t.field({
    type: [WebhookEndpoint],
    nullable: false,
    description: "The organization's webhook endpoints, newest first (never their secrets). Needs organization:manage.",
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => webhooks.listWebhookEndpoints(ctx, String(args.organizationId)),
  }),
  webhookDeliveries: t.field({
    type: WebhookDeliveryList,
    nullable: false,
    description: "An endpoint's deliveries, newest first, 20 a page, each with its attempts. Needs organization:manage.",
    args: {
      endpointId: t.arg.id({ required: true }),
      status: t.arg.string({ description: "Only deliveries in this state: pending, delivered or failed." }),
      page: t.arg.int({ description: "From 0." }),
      limit: t.arg.int({ description: "1 to 100 (default 20)." }),
    },
    resolve: (_root, args, { ctx }) => webhooks.listWebhookDeliveries(ctx, given({ endpointId: String(args.endpointId), status: args.status, page: args.page, limit: args.limit })),
  }),
}));

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: WebhookEndpointSecret,
    nullable: false,
    description: "Adds an endpoint (active) and returns its signing secret, this once. BAD_USER_INPUT with fieldErrors for the URL or the events.",
    args: { input: t.arg({ type: CreateWebhookEndpointInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => webhooks.createWebhookEndpoint(ctx, given(input)),
  }),
  updateWebhookEndpoint: t.field({
    type: WebhookEndpoint,
    nullable: false,
    description: "Changes the URL, description, events or active flag (pause/resume).",
    args: { input: t.arg({ type: UpdateWebhookEndpointInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => webhooks.updateWebhookEndpoint(ctx, given(input)),
  }),
  rotateWebhookSecret: t.field({
    type: WebhookEndpointSecret,
    nullable: false,
    description: "Replaces the signing secret at once (the old one stops signing) and returns the new one, this once.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => webhooks.rotateWebhookSecret(ctx, { id: String(args.id) }),
  }),
  deleteWebhookEndpoint: t.boolean({
    nullable: false,
    description: "Deletes the endpoint with its deliveries and their log; pending retries stop.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => webhooks.deleteWebhookEndpoint(ctx, { id: String(args.id) }),
  }),
  replayWebhookDelivery: t.field({
    type: WebhookDelivery,
    nullable: false,
    description: "Sends the delivery again now (same id and body, signed now with the current secret) and returns it with the new attempt. A failed replay is not retried.",
    args: { deliveryId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => webhooks.replayWebhookDelivery(ctx, { deliveryId: String(args.deliveryId) }),
  }),
  retryFailedWebhookDeliveries: t.int({
    nullable: false,
    description:
      "Puts the organization's failed deliveries (of one endpoint, or all of its active endpoints; oldest first, up to 500) back in the queue, which sends them again with its usual retries and the same ids. Returns how many. Needs organization:manage.",
    args: { organizationId: t.arg.id({ required: true }), endpointId: t.arg.id() },
    resolve: async (_root, args, { ctx }) =>
      (await webhooks.retryFailedWebhookDeliveries(ctx, given({ organizationId: String(args.organizationId), endpointId: args.endpointId == null ? undefined : String(args.endpointId) }))).count,
  }),
}));
