import { builder } from "./builder";
import { isoDate } from "./scalars";
import {
  disconnectMercadoPago,
  getMercadoPagoConnection,
  startMercadoPagoConnection,
  type MercadoPagoConnection as Connection,
} from "#server/payments/mercadopago-accounts";
import { paymentPublicConfig, paymentPublicConfigFor } from "#server/payments/providers";

type ConnectedAccount = NonNullable<Connection["account"]>;

const PaymentConfig = builder.objectRef<{ publicKey: string | null; sandbox: boolean }>("PaymentConfig").implement({
  description: "What a checkout in the browser needs to know about payments.",
  fields: (t) => ({
    publicKey: t.string({
      description: "Mercado Pago public key for its browser SDK (the organization's connected account when given one); null when not configured.",
      resolve: (c) => c.publicKey,
    }),
    sandbox: t.exposeBoolean("sandbox", { nullable: false, description: "Test mode (\"Modo de prueba\"): payments are simulated on the local sandbox, nobody pays and the tickets are not real. Never true on a server that takes real payments." }),
  }),
});

const MercadoPagoAccount = builder.objectRef<ConnectedAccount>("MercadoPagoAccount").implement({
  fields: (t) => ({
    mpUserId: t.exposeString("mpUserId", { nullable: false, description: "The seller's Mercado Pago user id." }),
    connectedAt: t.string({ nullable: false, resolve: (a) => isoDate(a.connectedAt)! }),
    expiresAt: t.string({ nullable: false, description: "When the authorization ends unless renewed (renewed automatically 30 days before).", resolve: (a) => isoDate(a.expiresAt)! }),
    refreshedAt: t.string({ resolve: (a) => isoDate(a.refreshedAt) }),
    liveMode: t.exposeBoolean("liveMode", { nullable: false }),
    expired: t.exposeBoolean("expired", { nullable: false }),
    refreshFailing: t.boolean({ nullable: false, resolve: (a) => Boolean(a.lastRefreshError) }),
  }),
});

const MercadoPagoConnectionRef = builder.objectRef<Connection>("MercadoPagoConnection").implement({
  fields: (t) => ({
    configured: t.exposeBoolean("configured", { nullable: false, description: "The server can connect accounts (MERCADOPAGO_CLIENT_ID and secret set)." }),
    sandbox: t.exposeBoolean("sandbox", { nullable: false }),
    account: t.field({ type: MercadoPagoAccount, description: "The connected account; null when the platform's account collects.", resolve: (c) => c.account }),
  }),
});

const MercadoPagoAuthorization = builder.objectRef<{ url: string }>("MercadoPagoAuthorization").implement({
  fields: (t) => ({
    url: t.exposeString("url", { nullable: false, description: "Mercado Pago's consent screen; open it in the browser of the same signed-in member." }),
  }),
});

const OrganizationPaymentInput = builder.inputType("OrganizationPaymentInput", {
  fields: (t) => ({ organizationId: t.id({ required: true }) }),
});

builder.queryFields((t) => ({
  paymentConfig: t.field({
    type: PaymentConfig,
    nullable: false,
    description: "Public payment settings for a checkout (no sign-in needed).",
    args: { organizationId: t.arg.id() },
    resolve: async (_root, { organizationId }, { ctx }) => {
      if (!organizationId || !/^[0-9a-f-]{36}$/i.test(String(organizationId))) return paymentPublicConfig();
      return paymentPublicConfigFor(ctx.db, String(organizationId), ctx.now);
    },
  }),
  mercadoPagoConnection: t.field({
    type: MercadoPagoConnectionRef,
    nullable: false,
    description: "Whether the organization's Mercado Pago account is connected. Needs money:manage.",
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: (_root, { organizationId }, { ctx }) => getMercadoPagoConnection(ctx, { organizationId: String(organizationId) }),
  }),
}));

builder.mutationFields((t) => ({
  connectMercadoPago: t.field({
    type: MercadoPagoAuthorization,
    nullable: false,
    description: "Starts the OAuth connection: the URL of Mercado Pago's consent screen (valid 15 minutes). Needs money:manage; CONFLICT when the server has no Mercado Pago application.",
    args: { input: t.arg({ type: OrganizationPaymentInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => startMercadoPagoConnection(ctx, { organizationId: String(input.organizationId) }),
  }),
  disconnectMercadoPago: t.boolean({
    nullable: false,
    description: "Forgets the organization's Mercado Pago tokens; new checkouts use the platform's account. True when one was connected. Needs money:manage.",
    args: { input: t.arg({ type: OrganizationPaymentInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => disconnectMercadoPago(ctx, { organizationId: String(input.organizationId) }),
  }),
}));
