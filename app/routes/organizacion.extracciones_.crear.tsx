import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatMoney } from "#common/money";
import { listBankAccounts } from "#server/payouts/bank-accounts";
import { getWithdrawalBalance, requestWithdrawal } from "#server/payouts/withdrawals";
import { failedReply, guard, readForm, requireOrganization, savedRedirect, secondFactorRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, FormErrorList, FormSnackbar, SelectInput, TextInput, useIsPosting } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { Button, buttonClasses } from "#app/components/ui/Button";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Pedir una extracción · Tribuna" }];

/** `/organizacion/extracciones/crear`: owners and admins ask for part of the available balance to one of the organization's accounts. */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "money:manage");
  const [balance, accounts] = await Promise.all([guard(() => getWithdrawalBalance(bo.ctx, bo.organization.id)), guard(() => listBankAccounts(bo.ctx, { organizationId: bo.organization.id }))]);
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      available: formatMoney(balance.available),
      accounts: accounts.map((a) => ({ value: a.id, label: `${a.bankName} · ${a.holderName} · terminada en ${a.cbu.slice(-4)}` })),
    },
    { headers: bo.headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  try {
    const withdrawal = await requestWithdrawal(bo.ctx, { organizationId: bo.organization.id, bankAccountId: values.bankAccountId, amount: values.amount });
    return savedRedirect(`${BO.withdrawals}${bo.query()}`, bo.headers, `Pedimos la extracción de ${formatMoney(withdrawal.amount)}. Te avisamos por email cuando la aprobemos y cuando la transfiramos.`);
  } catch (error) {
    const verify = secondFactorRedirect(error, new URL(request.url).pathname + new URL(request.url).search, bo.headers);
    if (verify) return verify;
    return failedReply(error, values, { headers: bo.headers, fields: (key) => key === "amount" || key === "bankAccountId" });
  }
}

export default function NewWithdrawalPage() {
  const { available, accounts } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const posting = useIsPosting();
  const href = useBackofficeHref();
  return (
    <BackofficePage narrow title="Pedir una extracción" lead={`Disponible: ${available}. La transferimos a la cuenta que elijas, a nombre de la organización.`}>
      <Card>
        {accounts.length === 0 ? (
          <p>
            Primero cargá una cuenta bancaria de la organización en{" "}
            <Link to={href(BO.bankAccounts)} className="font-bold underline">
              Cuentas bancarias
            </Link>
            .
          </p>
        ) : (
          <BackofficeForm reply={reply} defaults={{ bankAccountId: accounts.length === 1 ? accounts[0].value : "" }} method="post" className="flex flex-col gap-4">
            <FormErrorList reply={reply} />
            <SelectInput name="bankAccountId" label="Cuenta" options={accounts} placeholder="Elegí una" required />
            <TextInput name="amount" label="Monto en pesos" inputMode="decimal" required help="Por ejemplo 150000 o 150.000,50." />
            <div className="flex justify-end gap-2">
              <Link to={href(BO.withdrawals)} className={buttonClasses("ghost")}>
                Cancelar
              </Link>
              <Button type="submit" pending={posting} pendingLabel="Pidiendo…">
                Pedir extracción
              </Button>
            </div>
          </BackofficeForm>
        )}
      </Card>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
