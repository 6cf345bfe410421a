import { isFormError } from "#app/lib/domain-errors.server";
import { holdDuration } from "#common/pricing";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { DISCONNECTED_MESSAGE, disconnectMercadoPago, getMercadoPagoConnection, startMercadoPagoConnection } from "#server/payments/mercadopago-accounts";
import { errorResponse, guard, readForm, requireOrganization, secondFactorRedirect } from "#app/lib/backoffice.server";
import { withFlash } from "#app/lib/flash.server";
import { formatDateTime } from "#common/dates";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { Badge } from "#app/components/ui/Badge";
import { Button } from "#app/components/ui/Button";
import { ConfirmButton } from "#app/components/ui/Dialog";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Métodos de pago · Tribuna" }];

/** `getMercadoPagoConnection`: needs `money:manage` (owners and admins). */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "money:manage");
  const connection = await guard(() => getMercadoPagoConnection(bo.ctx, { organizationId: bo.organization.id }));
  const account = connection.account;
  return data(
    {
      organizationName: bo.organization.name,
      configured: connection.configured,
      sandbox: connection.sandbox,
      account: account
        ? {
            mpUserId: account.mpUserId,
            connectedAt: account.connectedAt.toISOString(),
            expiresAt: account.expiresAt.toISOString(),
            refreshedAt: account.refreshedAt?.toISOString() ?? null,
            liveMode: account.liveMode,
            expired: account.expired,
            lastRefreshError: account.lastRefreshError,
          }
        : null,
      bankAccountsHref: `/organizacion/cuentas-bancarias${bo.query()}`,
    },
    { headers: bo.headers },
  );
}

/** "Conectar Mercado Pago" (to its consent screen) and "Desconectar". */
export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  try {
    if (values.intent === "connect") {
      const { url: authorizationUrl } = await startMercadoPagoConnection(bo.ctx, { organizationId: bo.organization.id });
      return redirect(authorizationUrl, { headers: bo.headers });
    }
    if (values.intent === "disconnect") {
      await disconnectMercadoPago(bo.ctx, { organizationId: bo.organization.id });
      return redirect(back, { headers: withFlash(bo.headers, { type: "success", message: DISCONNECTED_MESSAGE }) });
    }
    return redirect(back, { headers: bo.headers });
  } catch (error) {
    const verify = secondFactorRedirect(error, back, bo.headers);
    if (verify) return verify;
    if (isFormError(error)) {
      return redirect(back, { headers: withFlash(bo.headers, { type: "error", message: error.message }) });
    }
    throw errorResponse(error);
  }
}

export default function MetodosDePagoPage() {
  const { organizationName, configured, sandbox, account, bankAccountsHref } = useLoaderData<typeof loader>();
  return (
    <BackofficePage
      narrow
      title="Métodos de pago"
      lead={<>Cómo cobra {organizationName} las entradas. Cada tipo de entrada se cobra con uno de estos métodos.</>}
    >
      <div className="flex flex-col gap-6">
        <Card title="Mercado Pago">
          <div className="flex flex-col gap-3">
            {account ? (
              <>
                <p className="flex flex-wrap items-center gap-2">
                  {account.expired ? <Badge tone="danger">Conexión vencida</Badge> : <Badge tone="success">Conectada</Badge>}
                  {account.liveMode ? null : <Badge tone="warning">Cuenta de prueba</Badge>}
                </p>
                <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
                  <dt className="text-[var(--muted)]">Usuario de Mercado Pago</dt>
                  <dd data-testid="mp-user-id">{account.mpUserId}</dd>
                  <dt className="text-[var(--muted)]">Conectada desde</dt>
                  <dd>{formatDateTime(account.connectedAt)}</dd>
                  <dt className="text-[var(--muted)]">La autorización vence</dt>
                  <dd>{formatDateTime(account.expiresAt)}</dd>
                  {account.refreshedAt ? (
                    <>
                      <dt className="text-[var(--muted)]">Última renovación</dt>
                      <dd>{formatDateTime(account.refreshedAt)}</dd>
                    </>
                  ) : null}
                </dl>
                <p className="text-sm text-[var(--muted)]">
                  Lo que pagan tus compradores entra directo en esta cuenta; el cargo por servicio de Tribuna se descuenta en el
                  mismo pago. Renovamos la autorización sola antes de que venza.
                </p>
                {account.lastRefreshError ? (
                  <p className="text-sm text-red-700 dark:text-red-300" role="alert">
                    No pudimos renovar la autorización. Si sigue fallando, desconectá y volvé a conectar la cuenta.
                  </p>
                ) : null}
                <Form method="post" className="flex flex-wrap justify-end gap-2">
                  {configured && account.expired ? (
                    <Button type="submit" name="intent" value="connect">
                      Volver a conectar
                    </Button>
                  ) : null}
                  <ConfirmButton
                    name="intent"
                    value="disconnect"
                    className="rounded-xl border border-[var(--border)] px-4 py-2 font-medium"
                    title="¿Desconectar Mercado Pago?"
                    description="Las próximas compras se cobrarán con la cuenta de Tribuna y te transferiremos lo vendido por extracciones."
                    confirmLabel="Desconectar"
                  >
                    Desconectar
                  </ConfirmButton>
                </Form>
              </>
            ) : configured ? (
              <>
                <p>
                  Conectá tu cuenta de Mercado Pago para recibir el dinero de las entradas directamente. Te vamos a llevar a
                  Mercado Pago para que autorices a Tribuna y después volvés acá.
                </p>
                <p className="text-sm text-[var(--muted)]">
                  Mientras no la conectes, las compras se cobran con la cuenta de Tribuna y el saldo lo retirás desde
                  extracciones.
                </p>
                <Form method="post" className="flex justify-end">
                  <Button type="submit" name="intent" value="connect">
                    Conectar Mercado Pago
                  </Button>
                </Form>
              </>
            ) : (
              <p data-testid="mp-not-configured">
                La conexión con Mercado Pago no está configurada en este servidor.{" "}
                {sandbox
                  ? "Los pagos usan el sandbox de prueba: nadie paga de verdad."
                  : "Las compras se cobran con la cuenta de Tribuna y el saldo lo retirás desde extracciones."}
              </p>
            )}
          </div>
        </Card>

        <Card title="Transferencia bancaria">
          <p>
            El comprador ve los datos de tu cuenta, transfiere y sube el comprobante; vos lo aprobás antes de que venza la
            reserva ({holdDuration("BANK_TRANSFER")}).
          </p>
          <p className="mt-3">
            <Link to={bankAccountsHref} className="font-medium text-primary-700 underline dark:text-primary-300">
              Administrá tus cuentas bancarias
            </Link>
          </p>
        </Card>

        <p className="text-sm text-[var(--muted)]">
          Cada tipo de entrada elige con qué método se cobra: Mercado Pago, una de tus cuentas bancarias o la cuenta de un
          RRPP.
        </p>
      </div>
    </BackofficePage>
  );
}
