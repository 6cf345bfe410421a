import crypto from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parse, validate } from "graphql";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb, type Db } from "#server/db/client";
import { webhookEndpoints } from "#server/db/schema";
import { setOutgoingTestPolicy } from "#server/http/safe-destination";
import { jobHandlers } from "#server/worker/handlers";
import { runDueJobs } from "#server/jobs/queue";
import { recordWebhookEvent } from "#server/webhooks/deliveries";
import { createProducer } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";
import { WEBHOOK_MESSAGES } from "#common/webhooks";
import { webhookHeaders } from "#server/webhooks/deliveries";


const CREATE = `mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) { secret endpoint { id url events active } }
}`;
const LIST = `query WebhookEndpoints($organizationId: ID!) { webhookEndpoints(organizationId: $organizationId) { id url description events active createdAt } }`;
const UPDATE = `mutation Update($input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $input) { id active events } }`;
const ROTATE = `mutation Rotate($id: ID!) { rotateWebhookSecret(id: $id) { secret endpoint { id } } }`;
const DELIVERIES = `query Deliveries($endpointId: ID!) { webhookDeliveries(endpointId: $endpointId) { total page limit items { id } } }`;
const DELETE = `mutation Delete($id: ID!) { deleteWebhookEndpoint(id: $id) }`;
const REPLAY = `mutation Replay($deliveryId: ID!) { replayWebhookDelivery(deliveryId: $deliveryId) { id } }`;

const DELIVERY_LOG = `query Log($endpointId: ID!) { webhookDeliveries(endpointId: $endpointId) { items { id status lastStatusCode lastError attemptLog { statusCode error replay } } } }`;
const REPLAY_LOG = `mutation Replay($deliveryId: ID!) { replayWebhookDelivery(deliveryId: $deliveryId) { lastError attemptLog { statusCode error replay } } }`;

afterEach(() => setOutgoingTestPolicy(null));

describe("webhooks over GraphQL", () => {
  it("a URL on a private address, literal or behind a name, is refused with a typed error; a delivery that fails says nothing about the network", async () => {
    const made = await createProducer();
    const db = await getDb();
    const tokens = await startSession(db, made.user, new Date());
    const organizationId = made.organization.id;
    // A port nobody listens on, which this test lets through as its own (the only way to reach 127.0.0.1 at all).
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const answers = new Map<string, string[]>([
      ["127.0.0.1.nip.io", ["127.0.0.1"]],
      ["hooks.integrador.example", ["93.184.215.14"]],
    ]);
    setOutgoingTestPolicy({
      lookup: async (hostname) => (answers.get(hostname) ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }) as const),
      allow: (address, port) => address === "127.0.0.1" && port === closedPort,
    });

    for (const url of ["https://10.0.0.5/hook", "https://[::ffff:10.0.0.5]/hook", "https://2130706433/hook", "https://metadata.google.internal/computeMetadata/v1/", "https://localhost./hook", "https://127.0.0.1.nip.io/hook"]) {
      const refused = await gql(CREATE, { tokens, variables: { input: { organizationId, url, events: ["order.paid"] } } });
      expect(errorCode(refused), url).toBe("BAD_USER_INPUT");
      expect(refused.body.errors![0].extensions!.fieldErrors, url).toEqual({ url: [WEBHOOK_MESSAGES.urlPrivate] });
    }
    expect(await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.organizationId, organizationId))).toEqual([]);

    // Saved while its name answered a public address; then the answer moved inside. And a refused connection.
    const created = async (url: string) =>
      (await gql<{ createWebhookEndpoint: { endpoint: { id: string } } }>(CREATE, { tokens, variables: { input: { organizationId, url, events: ["order.paid"] } } })).body.data!.createWebhookEndpoint.endpoint.id;
    const rebound = await created("https://hooks.integrador.example/tribuna");
    const refusedPort = await created(`http://127.0.0.1:${closedPort}/tribuna`);
    answers.set("hooks.integrador.example", ["10.0.0.5"]);
    await recordWebhookEvent(db, organizationId, "order.paid", new Date(), async () => ({ orderCode: "TRB-PRUEBA" }));
    await runDueJobs(db as Db, jobHandlers, new Date(), 1000);

    for (const endpointId of [rebound, refusedPort]) {
      const log = await gql<{ webhookDeliveries: { items: { id: string; lastError: string; lastStatusCode: number | null; attemptLog: { error: string }[] }[] } }>(DELIVERY_LOG, { tokens, variables: { endpointId } });
      expect(log.body.errors).toBeUndefined();
      const [delivery] = log.body.data!.webhookDeliveries.items;
      expect(delivery).toMatchObject({ status: "pending", lastStatusCode: null, lastError: "No pudimos entregar el aviso.", attemptLog: [{ statusCode: null, error: "No pudimos entregar el aviso.", replay: false }] });
      const replayed = await gql<{ replayWebhookDelivery: unknown }>(REPLAY_LOG, { tokens, variables: { deliveryId: delivery.id } });
      expect(replayed.body.data!.replayWebhookDelivery).toMatchObject({ lastError: "No pudimos entregar el aviso.", attemptLog: [{ replay: false }, { statusCode: null, error: "No pudimos entregar el aviso.", replay: true }] });
      for (const body of [log.body, replayed.body]) expect(JSON.stringify(body)).not.toMatch(/ECONN|EAI_|ENOTFOUND|10\.0\.0\.5|127\.0\.0\.1|93\.184|conectarnos|privad|interna|:\d{4,5}/);
    }
  });

  it("create, list, pause, rotate, deliveries and delete for the owner; FORBIDDEN for another organization's owner; field errors in Spanish", async () => {
    const made = await createProducer();
    const db = await getDb();
    const tokens = await startSession(db, made.user, new Date());
    const organizationId = made.organization.id;

    const bad = await gql(CREATE, { tokens, variables: { input: { organizationId, url: "http://example.com/hook", events: ["order.paid"] } } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    expect(bad.body.errors![0].extensions!.fieldErrors).toEqual({ url: [WEBHOOK_MESSAGES.urlHttps] });

    const created = await gql<{ createWebhookEndpoint: { secret: string; endpoint: { id: string; events: string[]; active: boolean } } }>(CREATE, {
      tokens,
      variables: { input: { organizationId, url: "https://hooks.example.com/tribuna", description: "Acreditaciones", events: ["ticket.redeemed", "order.paid"] } },
    });
    expect(created.body.errors).toBeUndefined();
    const { secret, endpoint } = created.body.data!.createWebhookEndpoint;
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({ events: ["order.paid", "ticket.redeemed"], active: true });

    const list = await gql<{ webhookEndpoints: { id: string; description: string; createdAt: string }[] }>(LIST, { tokens, variables: { organizationId } });
    expect(list.body.errors).toBeUndefined();
    expect(list.body.data!.webhookEndpoints).toEqual([expect.objectContaining({ id: endpoint.id, description: "Acreditaciones" })]);
    expect(JSON.stringify(list.body)).not.toContain(secret);

    const paused = await gql<{ updateWebhookEndpoint: { active: boolean; events: string[] } }>(UPDATE, { tokens, variables: { input: { id: endpoint.id, active: false } } });
    expect(paused.body.data!.updateWebhookEndpoint).toEqual({ id: endpoint.id, active: false, events: ["order.paid", "ticket.redeemed"] });
    const rotated = await gql<{ rotateWebhookSecret: { secret: string } }>(ROTATE, { tokens, variables: { id: endpoint.id } });
    expect(rotated.body.data!.rotateWebhookSecret.secret).not.toBe(secret);
    const deliveries = await gql<{ webhookDeliveries: { total: number } }>(DELIVERIES, { tokens, variables: { endpointId: endpoint.id } });
    expect(deliveries.body.data!.webhookDeliveries).toEqual({ total: 0, page: 0, limit: 20, items: [] });

    const other = await createProducer();
    const otherTokens = await startSession(db, other.user, new Date());
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(errorCode(await gql(LIST, { tokens: otherTokens, variables: { organizationId } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(CREATE, { tokens: otherTokens, variables: { input: { organizationId, url: "https://x.example.com", events: ["order.paid"] } } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(UPDATE, { tokens: otherTokens, variables: { input: { id: endpoint.id, active: true } } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(ROTATE, { tokens: otherTokens, variables: { id: endpoint.id } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(DELIVERIES, { tokens: otherTokens, variables: { endpointId: endpoint.id } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(DELETE, { tokens: otherTokens, variables: { id: endpoint.id } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(REPLAY, { tokens: otherTokens, variables: { deliveryId: missing } }))).toBe("NOT_FOUND");
    expect(errorCode(await gql(LIST, { variables: { organizationId } }))).toBe("UNAUTHENTICATED");

    const deleted = await gql<{ deleteWebhookEndpoint: boolean }>(DELETE, { tokens, variables: { id: endpoint.id } });
    expect(deleted.body.data!.deleteWebhookEndpoint).toBe(true);
    expect((await gql<{ webhookEndpoints: unknown[] }>(LIST, { tokens, variables: { organizationId } })).body.data!.webhookEndpoints).toEqual([]);
  });

  it("the webhooks section of docs/api.md has every operation, valid against the schema, and a verification snippet that works", async () => {
    const { schema } = await import("#server/graphql/schema");
    const doc = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");
    const from = doc.indexOf("\n## Webhooks salientes");
    const to = doc.indexOf("\n## ", from + 5);
    const api = doc.slice(from, to === -1 ? undefined : to);
    const examples = [...api.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(examples).toHaveLength(8);
    for (const example of examples) expect(validate(schema, parse(example)).map((e) => e.message)).toEqual([]);
    for (const op of [
      "webhookEndpoints",
      "webhookDeliveries",
      "createWebhookEndpoint",
      "updateWebhookEndpoint",
      "rotateWebhookSecret",
      "deleteWebhookEndpoint",
      "replayWebhookDelivery",
      "retryFailedWebhookDeliveries",
    ]) {
      expect(api).toContain(`### \`${op}\``);
    }
    expect(api).toContain("### Verifying a webhook");

    // The Node.js snippet verifies what we send, and refuses a tampered body.
    const js = /```js\n([\s\S]*?)```/.exec(api)![1];
    const source = js.slice(js.indexOf("export function verifyWebhookSignature"), js.indexOf("\nconst app")).replace("export ", "");
    const verify = new Function("crypto", `${source}; return verifyWebhookSignature;`)(crypto) as (...args: unknown[]) => boolean;
    const body = JSON.stringify({ id: "x", type: "order.paid" });
    const headers = webhookHeaders("whsec_prueba", "x", body, new Date());
    expect(verify("whsec_prueba", headers["Tribuna-Webhook-Timestamp"], headers["Tribuna-Signature"], body)).toBe(true);
    expect(verify("whsec_prueba", headers["Tribuna-Webhook-Timestamp"], headers["Tribuna-Signature"], `${body} `)).toBe(false);
  });
});
