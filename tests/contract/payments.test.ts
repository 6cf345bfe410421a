import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { NOT_CONFIGURED } from "#server/payments/mercadopago-accounts";
import { createTestUser } from "#tests/support/context";
import { createProducer } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";

// This file runs without Mercado Pago credentials: the sandbox.
for (const name of ["MERCADOPAGO_ACCESS_TOKEN", "MERCADOPAGO_PUBLIC_KEY", "MERCADOPAGO_CLIENT_ID", "MERCADOPAGO_CLIENT_SECRET"]) delete process.env[name];

const PAYMENT_CONFIG = /* GraphQL */ `
  query PaymentConfig($organizationId: ID) {
    paymentConfig(organizationId: $organizationId) { publicKey sandbox }
  }
`;
const CONNECTION = /* GraphQL */ `
  query MercadoPagoConnection($organizationId: ID!) {
    mercadoPagoConnection(organizationId: $organizationId) { configured sandbox account { mpUserId connectedAt expiresAt refreshedAt liveMode expired refreshFailing } }
  }
`;
const CONNECT = /* GraphQL */ `
  mutation ConnectMercadoPago($input: OrganizationPaymentInput!) { connectMercadoPago(input: $input) { url } }
`;
const DISCONNECT = /* GraphQL */ `
  mutation DisconnectMercadoPago($input: OrganizationPaymentInput!) { disconnectMercadoPago(input: $input) }
`;

async function ownerTokens() {
  const { user, organization } = await createProducer();
  return { organization, tokens: await startSession(await getDb(), { ...user, roles: ["producer"] }, new Date()) };
}

describe("payments over GraphQL", () => {
  it("paymentConfig is public: no key and the sandbox on a server without Mercado Pago", async () => {
    const { organization } = await ownerTokens();
    const result = await gql<{ paymentConfig: { publicKey: string | null; sandbox: boolean } }>(PAYMENT_CONFIG, { variables: { organizationId: organization.id } });
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data?.paymentConfig).toEqual({ publicKey: null, sandbox: true });
  });

  it("mercadoPagoConnection, connectMercadoPago and disconnectMercadoPago for an owner; FORBIDDEN for others", async () => {
    const { organization, tokens } = await ownerTokens();
    const connection = await gql<{ mercadoPagoConnection: unknown }>(CONNECTION, { tokens, variables: { organizationId: organization.id } });
    expect(connection.body.errors).toBeUndefined();
    expect(connection.body.data?.mercadoPagoConnection).toEqual({ configured: false, sandbox: true, account: null });

    const connect = await gql(CONNECT, { tokens, variables: { input: { organizationId: organization.id } } });
    expect(errorCode(connect)).toBe("CONFLICT");
    expect(connect.body.errors?.[0].message).toBe(NOT_CONFIGURED);

    const disconnect = await gql<{ disconnectMercadoPago: boolean }>(DISCONNECT, { tokens, variables: { input: { organizationId: organization.id } } });
    expect(disconnect.body.data?.disconnectMercadoPago).toBe(false);

    const stranger = await createTestUser();
    const strangerTokens = await startSession(await getDb(), stranger, new Date());
    expect(errorCode(await gql(CONNECTION, { tokens: strangerTokens, variables: { organizationId: organization.id } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(DISCONNECT, { tokens: strangerTokens, variables: { input: { organizationId: organization.id } } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(CONNECTION, { variables: { organizationId: organization.id } }))).toBe("UNAUTHENTICATED");
  });
});
