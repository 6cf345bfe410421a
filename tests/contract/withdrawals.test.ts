
import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { sessionTokensFor } from "#tests/support/context";
import { getDb } from "#server/db/client";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { createTestUser, ctxAs } from "#tests/support/context";
import { createEventWithReleasedSales, createEventWithTickets, createPublishedEvent } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";

const BALANCE = `query($organizationId: ID!) { withdrawalBalance(organizationId: $organizationId) { available total pending { releaseAt amount } } }`;
const REQUEST = `mutation($input: RequestWithdrawalInput!) { requestWithdrawal(input: $input) { id amount status } }`;
const QUEUE = `query($statuses: [String!]) { withdrawals(statuses: $statuses) { id organizationName status amount } }`;
const APPROVE = `mutation($id: ID!) { approveWithdrawal(id: $id) { id status } }`;
const PAID = `mutation($id: ID!, $ref: String!) { markWithdrawalPaid(id: $id, transferReference: $ref) { id status transferReference } }`;
const REJECT = `mutation($id: ID!, $reason: String!) { rejectWithdrawal(id: $id, reason: $reason) { id status } }`;

describe("withdrawals over GraphQL", () => {
  it("an organization asks within its balance; the platform's admin approves and pays; strangers and organizers cannot decide", async () => {
    const made = await createEventWithReleasedSales(2);
    const { db, account } = made;
    const tokens = await sessionTokensFor(made.user.id, { secondFactor: true });
    // A sign-in that has not proved the second factor is asked for it first.
    const unproved = await gql(REQUEST, { tokens: await startSession(db, made.user, new Date()), variables: { input: { organizationId: made.organization.id, bankAccountId: account.id, amount: 100 } } });
    expect(unproved.body.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN", reason: "SECOND_FACTOR_VERIFY" });

    const balance = await gql<{ withdrawalBalance: { available: number; total: number } }>(BALANCE, { tokens, variables: { organizationId: made.organization.id } });
    expect(balance.body.data!.withdrawalBalance).toMatchObject({ available: 2_000_000, total: 2_000_000 });
    const tooMuch = await gql(REQUEST, { tokens, variables: { input: { organizationId: made.organization.id, bankAccountId: account.id, amount: 2_000_001 } } });
    expect(errorCode(tooMuch)).toBe("BAD_USER_INPUT");
    const requested = await gql<{ requestWithdrawal: { id: string; status: string } }>(REQUEST, { tokens, variables: { input: { organizationId: made.organization.id, bankAccountId: account.id, amount: 1_500_000 } } });
    expect(requested.body.data!.requestWithdrawal.status).toBe("requested");
    const id = requested.body.data!.requestWithdrawal.id;

    expect(errorCode(await gql(APPROVE, { tokens, variables: { id } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(QUEUE, { tokens, variables: {} }))).toBe("FORBIDDEN");
    const stranger = await createEventWithTickets();
    expect(errorCode(await gql(BALANCE, { tokens: await startSession(db, stranger.user, new Date()), variables: { organizationId: made.organization.id } }))).toBe("FORBIDDEN");

    const admin = await createTestUser({ roles: ["admin"] });
    const adminTokens = await sessionTokensFor(admin.id, { secondFactor: true });
    const queue = await gql<{ withdrawals: { id: string; organizationName: string }[] }>(QUEUE, { tokens: adminTokens, variables: { statuses: ["requested", "approved"] } });
    expect(queue.body.data!.withdrawals.find((w) => w.id === id)).toMatchObject({ organizationName: made.organization.name });
    expect((await gql<{ approveWithdrawal: { status: string } }>(APPROVE, { tokens: adminTokens, variables: { id } })).body.data!.approveWithdrawal.status).toBe("approved");
    expect(errorCode(await gql(APPROVE, { tokens: adminTokens, variables: { id } }))).toBe("CONFLICT");
    const paid = await gql<{ markWithdrawalPaid: { status: string; transferReference: string } }>(PAID, { tokens: adminTokens, variables: { id, ref: "TRF-0042" } });
    expect(paid.body.data!.markWithdrawalPaid).toMatchObject({ status: "paid", transferReference: "TRF-0042" });
    expect(errorCode(await gql(REJECT, { tokens: adminTokens, variables: { id, reason: "Demasiado tarde" } }))).toBe("CONFLICT");
  });
});

const CREATE_ACCOUNT = `mutation($input: CreateBankAccountInput!) { createBankAccount(input: $input) { id cbu } }`;
const UPDATE_ACCOUNT = `mutation($input: UpdateBankAccountInput!) { updateBankAccount(input: $input) { id cbu holderName } }`;
const DELETE_ACCOUNT = `mutation($input: DeleteBankAccountInput!) { deleteBankAccount(input: $input) { id } }`;
const ACCOUNTS = `query($organizationId: ID!) { bankAccounts(organizationId: $organizationId) { items { id cbu holderName } } }`;
const MINE = `query($organizationId: ID!) { withdrawals(organizationId: $organizationId) { id status bankAccountId bankName cbu cbuEnd alias holderName holderCuit } }`;
// A valid CBU of another bank (BBVA), to redirect the money to.
const OTHER_CBU = "0170329812345678901233";

describe("bank accounts are money destinations over GraphQL (decision 144)", () => {
  it("an organization admin without the second factor cannot create, update or delete a bank account", async () => {
    const made = await createEventWithReleasedSales(1);
    const db = await getDb();
    const admin = await createTestUser();
    const { memberships } = await import("#server/db/schema");
    await db.insert(memberships).values({ organizationId: made.organization.id, userId: admin.id, role: "admin" });
    const tokens = await startSession(db, admin, new Date());
    const enrol = { code: "FORBIDDEN", reason: "SECOND_FACTOR_ENROL" };

    const created = await gql(CREATE_ACCOUNT, { tokens, variables: { input: { organizationId: made.organization.id, cbu: OTHER_CBU, holderName: "Otra Persona", holderCuit: "20-12345678-6" } } });
    expect(created.body.errors?.[0]?.extensions).toMatchObject(enrol);
    const updated = await gql(UPDATE_ACCOUNT, { tokens, variables: { input: { id: made.account.id, cbu: OTHER_CBU, holderName: "Otra Persona", holderCuit: "20-12345678-6" } } });
    expect(updated.body.errors?.[0]?.extensions).toMatchObject(enrol);
    expect(updated.body.errors?.[0]?.message).toMatch(/verificación en dos pasos/);
    const deleted = await gql(DELETE_ACCOUNT, { tokens, variables: { input: { id: made.account.id } } });
    expect(deleted.body.errors?.[0]?.extensions).toMatchObject(enrol);

    // The admin still reads the accounts (money:manage), and they are as the owner left them.
    const list = await gql<{ bankAccounts: { items: { id: string; cbu: string; holderName: string }[] } }>(ACCOUNTS, { tokens, variables: { organizationId: made.organization.id } });
    expect(list.body.data!.bankAccounts.items).toEqual([{ id: made.account.id, cbu: made.account.cbu, holderName: made.account.holderName }]);
  });

  it("a withdrawal keeps the CBU it was requested to; the account cannot change while it is pending, and a later change does not move it", async () => {
    const made = await createEventWithReleasedSales(2);
    const { account } = made;
    const tokens = await sessionTokensFor(made.user.id, { secondFactor: true });
    const requested = await gql<{ requestWithdrawal: { id: string } }>(REQUEST, { tokens, variables: { input: { organizationId: made.organization.id, bankAccountId: account.id, amount: 1_500_000 } } });
    const id = requested.body.data!.requestWithdrawal.id;

    // Even the owner with the second factor cannot redirect it while it is pending: a typed CONFLICT next to the CBU.
    const redirect = await gql(UPDATE_ACCOUNT, { tokens, variables: { input: { id: account.id, cbu: OTHER_CBU, holderName: "Otra Persona", holderCuit: "20-12345678-6" } } });
    expect(redirect.body.errors?.[0]?.extensions).toMatchObject({ code: "CONFLICT", reason: "BANK_ACCOUNT_IN_USE", fieldErrors: { cbu: [expect.stringMatching(/extracción pendiente/)] } });
    expect(redirect.body.errors?.[0]?.message).toMatch(/^Esta cuenta tiene una extracción pendiente/);
    const gone = await gql(DELETE_ACCOUNT, { tokens, variables: { input: { id: account.id } } });
    expect(gone.body.errors?.[0]?.extensions).toMatchObject({ code: "CONFLICT", reason: "BANK_ACCOUNT_IN_USE" });

    // The platform's queue shows where it is paid: the account as it was.
    const admin = await createTestUser({ roles: ["admin"] });
    const adminTokens = await sessionTokensFor(admin.id, { secondFactor: true });
    const expected = { id, bankAccountId: account.id, bankName: account.bankName, cbu: account.cbu, cbuEnd: account.cbu.slice(-4), alias: account.alias, holderName: account.holderName, holderCuit: account.holderCuit };
    const queue = await gql<{ withdrawals: { id: string }[] }>(`query { withdrawals(statuses: ["requested"]) { id bankAccountId bankName cbu cbuEnd alias holderName holderCuit } }`, { tokens: adminTokens });
    expect(queue.body.data!.withdrawals.find((w) => w.id === id)).toEqual(expected);

    // Paid; then the account changes: the withdrawal still says the CBU it went to.
    await gql(APPROVE, { tokens: adminTokens, variables: { id } });
    await gql(PAID, { tokens: adminTokens, variables: { id, ref: "TRF-77" } });
    const changed = await gql<{ updateBankAccount: { cbu: string } }>(UPDATE_ACCOUNT, { tokens, variables: { input: { id: account.id, cbu: OTHER_CBU, holderName: "Otra Persona", holderCuit: "20-12345678-6" } } });
    expect(changed.body.data!.updateBankAccount.cbu).toBe(OTHER_CBU);
    const mine = await gql<{ withdrawals: { id: string; status: string }[] }>(MINE, { tokens, variables: { organizationId: made.organization.id } });
    expect(mine.body.data!.withdrawals).toEqual([{ ...expected, status: "paid" }]);
  });
});

/** An event with General tickets at $10.000 and one order of `qty` of them, paid by Mercado Pago. */
async function eventWithPaidOrder(qty: number, options: { days?: number } = {}) {
  const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 10 }], options);
  const db = await getDb();
  const { billing } = await createOrder(await ctxAs(), {
    eventSlug: made.event.slug,
    items: [{ ticketId: made.tickets.General.id, qty }],
    payer: { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  await payInSandbox(db, billing.id, "approved");
  return { made, db };
}

describe("a sold date over GraphQL (decision 145)", () => {
  it("updateEventDate into the past is a BAD_USER_INPUT with reason SOLD_DATE_IN_PAST on the field; the balance stays a liberar", async () => {
    const { made } = await eventWithPaidOrder(2, { days: 7 });
    const tokens = await sessionTokensFor(made.user.id, { secondFactor: true });
    const endsAt = new Date(Date.now() - 10 * 86_400_000);
    const moved = await gql(`mutation($input: UpdateEventDateInput!) { updateEventDate(input: $input) { id startsAt } }`, {
      tokens,
      variables: { input: { id: made.date.id, startsAt: new Date(endsAt.getTime() - 4 * 3600_000).toISOString(), endsAt: endsAt.toISOString() } },
    });
    expect(moved.body.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "SOLD_DATE_IN_PAST", fieldErrors: { startsAt: ["Esta fecha ya tiene entradas vendidas: no puede quedar en el pasado."] } });
    const balance = await gql<{ withdrawalBalance: { available: number; total: number } }>(BALANCE, { tokens, variables: { organizationId: made.organization.id } });
    expect(balance.body.data!.withdrawalBalance).toMatchObject({ available: 0, total: 2_000_000 });
  });
});

describe("organizationSummary over GraphQL", () => {
  it("gives members the sales figures and strangers a FORBIDDEN", async () => {
    const { made, db } = await eventWithPaidOrder(3);
    const SUMMARY = `query($id: ID!) { organizationSummary(organizationId: $id) { today { orders tickets revenue } total { orders } pendingTransfers refundsToDecide } }`;
    const result = await gql<{ organizationSummary: unknown }>(SUMMARY, { tokens: await startSession(db, made.user, new Date()), variables: { id: made.organization.id } });
    expect(result.body.data!.organizationSummary).toEqual({ today: { orders: 1, tickets: 3, revenue: 3_000_000 }, total: { orders: 1 }, pendingTransfers: 0, refundsToDecide: 0 });
    const stranger = await createEventWithTickets();
    expect(errorCode(await gql(SUMMARY, { tokens: await startSession(db, stranger.user, new Date()), variables: { id: made.organization.id } }))).toBe("FORBIDDEN");
  });

  it("takes the page's event filter: eventId gives only that event's figures; another organization's event is NOT_FOUND", async () => {
    const { made, db } = await eventWithPaidOrder(2);
    const { event: quiet } = await createPublishedEvent(made.ctx, made.organization.id, { name: "Sin ventas", ticketTypes: [{ name: "General", price: 500_000, stock: 5 }] });
    const SUMMARY = `query($id: ID!, $eventId: ID) { organizationSummary(organizationId: $id, eventId: $eventId) { total { orders tickets } } }`;
    const tokens = await startSession(db, made.user, new Date());
    const of = async (eventId?: string) => (await gql<{ organizationSummary: { total: { orders: number; tickets: number } } }>(SUMMARY, { tokens, variables: { id: made.organization.id, eventId } })).body.data!.organizationSummary.total;
    expect(await of()).toEqual({ orders: 1, tickets: 2 });
    expect(await of(made.event.id)).toEqual({ orders: 1, tickets: 2 });
    expect(await of(quiet.id)).toEqual({ orders: 0, tickets: 0 });
    const other = await createEventWithTickets();
    expect(errorCode(await gql(SUMMARY, { tokens, variables: { id: made.organization.id, eventId: other.event.id } }))).toBe("NOT_FOUND");
  });
});

describe("eventMetrics over GraphQL", () => {
  it("gives the event's sales per type to its organization only", async () => {
    const made = await createEventWithReleasedSales(3);
    const METRICS = `query($id: ID!) { eventMetrics(eventId: $id) { ticketTypes { name sold revenue } entries { sold entered } } }`;
    const result = await gql<{ eventMetrics: unknown }>(METRICS, { tokens: await startSession(made.db, made.user, new Date()), variables: { id: made.event.id } });
    expect(result.body.data!.eventMetrics).toEqual({ ticketTypes: [{ name: "General", sold: 3, revenue: 3_000_000 }], entries: { sold: 3, entered: 0 } });
    const stranger = await createEventWithTickets();
    expect(errorCode(await gql(METRICS, { tokens: await startSession(made.db, stranger.user, new Date()), variables: { id: made.event.id } }))).toBe("FORBIDDEN");
  });
});

describe("reportDownload over GraphQL", () => {
  it("says where to download an export the member may take; the path streams it with the same token; the ledger is refused to an operator", async () => {
    const made = await createEventWithReleasedSales(2);
    const tokens = await startSession(made.db, made.user, new Date());
    const DOWNLOAD = `query($input: ReportDownloadInput!) { reportDownload(input: $input) { path filename } }`;
    const result = await gql<{ reportDownload: { path: string; filename: string } }>(DOWNLOAD, { tokens, variables: { input: { organizationId: made.organization.id, kind: "asistentes", format: "csv", eventId: made.event.id } } });
    expect(result.body.errors).toBeUndefined();
    const { path, filename } = result.body.data!.reportDownload;
    // Of one event: the name says which (decision 153).
    expect(filename).toMatch(new RegExp(`^asistentes-${made.event.slug}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    const { loader: download } = await import("#app/routes/organizacion.informes_.descargar");
    const response = (await download({ request: new Request(`http://localhost${path}`, { headers: { "x-access-token": tokens.accessToken } }), params: {}, context: {} })) as Response;
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await response.text()).split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(made.order.code);

    expect(errorCode(await gql(DOWNLOAD, { tokens, variables: { input: { organizationId: made.organization.id, kind: "nada" } } }))).toBe("BAD_USER_INPUT");
    const stranger = await createEventWithTickets();
    expect(errorCode(await gql(DOWNLOAD, { tokens: await startSession(made.db, stranger.user, new Date()), variables: { input: { organizationId: made.organization.id, kind: "ventas" } } }))).toBe("FORBIDDEN");
  });

  it("the platform team asks for the invoices of one month; a malformed month is BAD_USER_INPUT and an organizer is FORBIDDEN", async () => {
    const made = await createEventWithReleasedSales(1);
    const admin = await createTestUser({ roles: ["admin"] });
    const DOWNLOAD = `query($input: ReportDownloadInput!) { reportDownload(input: $input) { path filename } }`;
    const asAdmin = await startSession(made.db, admin, new Date());
    const result = await gql<{ reportDownload: { path: string; filename: string } }>(DOWNLOAD, { tokens: asAdmin, variables: { input: { organizationId: made.organization.id, kind: "facturas", format: "xlsx", month: "2026-11" } } });
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data!.reportDownload.path).toContain("tipo=facturas");
    expect(result.body.data!.reportDownload.path).toContain("mes=2026-11");
    expect(result.body.data!.reportDownload.filename).toMatch(/^facturas-periodo-2026-11-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(errorCode(await gql(DOWNLOAD, { tokens: asAdmin, variables: { input: { organizationId: made.organization.id, kind: "facturas", month: "2026-13" } } }))).toBe("BAD_USER_INPUT");
    const owner = await startSession(made.db, made.user, new Date());
    expect(errorCode(await gql(DOWNLOAD, { tokens: owner, variables: { input: { organizationId: made.organization.id, kind: "facturas" } } }))).toBe("FORBIDDEN");
  });
});
