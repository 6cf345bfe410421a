import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { formatCbu } from "#common/cbu";
import { formatCuit } from "#common/cuit";
import { failedReply, guard, readForm, requireOrganization, savedRedirect, secondFactorRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, Checkbox, FormErrorList, FormSnackbar, TextInput, useIsPosting, useRemountKey } from "#app/components/backoffice/forms";
import { bankAccountFormSchema } from "#app/components/backoffice/schemas";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import type { FormReply } from "#app/components/backoffice/types";
import { Badge } from "#app/components/ui/Badge";
import { Button } from "#app/components/ui/Button";
import { ConfirmButton } from "#app/components/ui/Dialog";
import { BANK_ACCOUNT_MESSAGES, createBankAccount, deleteBankAccount, listBankAccounts, setTicketTransferAccount, updateBankAccount } from "#server/payouts/bank-accounts";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Cuentas bancarias · Tribuna" }];

const PATH = "/organizacion/cuentas-bancarias";
const FIELDS = ["bankName", "cbu", "alias", "holderName", "holderCuit"] as const;

/** `bankAccounts(organizationId)`: owners and admins (`money:manage`); others get the 403 page. */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "money:manage");
  const accounts = await guard(() => listBankAccounts(bo.ctx, { organizationId: bo.organization.id }));
  return data(
    {
      organizationName: bo.organization.name,
      accounts: accounts.map((a) => ({
        id: a.id,
        bankName: a.bankName,
        cbu: a.cbu,
        cbuLabel: formatCbu(a.cbu),
        kind: a.cbu.startsWith("000") ? "CVU" : "CBU",
        alias: a.alias ?? "",
        holderName: a.holderName,
        holderCuit: formatCuit(a.holderCuit),
        forTicketTransfers: a.forTicketTransfers,
      })),
    },
    { headers: bo.headers },
  );
}

/** Create, edit, mark for ticket transfers, delete: the same domain functions as GraphQL (each asks for the second factor). */
export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  const url = new URL(request.url);
  const back = `${PATH}${url.search}`;
  const target = values.intent === "create" ? "new" : (values.id ?? null);
  const fields = Object.fromEntries(FIELDS.map((name) => [name, values[name] ?? ""]));
  try {
    switch (values.intent) {
      case "create":
        await createBankAccount(bo.ctx, { organizationId: bo.organization.id, ...fields, forTicketTransfers: values.forTicketTransfers ?? false });
        return savedRedirect(back, bo.headers);
      case "update":
        await updateBankAccount(bo.ctx, { id: values.id ?? "", ...fields, forTicketTransfers: values.forTicketTransfers ?? false });
        return savedRedirect(back, bo.headers);
      case "mark":
        await setTicketTransferAccount(bo.ctx, { id: values.id ?? "" });
        return savedRedirect(back, bo.headers);
      case "delete":
        await deleteBankAccount(bo.ctx, { id: values.id ?? "" });
        return savedRedirect(back, bo.headers, BANK_ACCOUNT_MESSAGES.deleted);
      default:
        return savedRedirect(back, bo.headers);
    }
  } catch (error) {
    // Where money goes asks for the second factor, as a withdrawal does: to /cuenta/seguridad or /cuenta/verificacion and back.
    const verify = secondFactorRedirect(error, back, bo.headers);
    if (verify) return verify;
    return failedReply(error, values, { headers: bo.headers, target, fields: (key) => (FIELDS as readonly string[]).includes(key) });
  }
}

function AccountFields() {
  return (
    <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
      <TextInput name="cbu" label="CBU o CVU" inputMode="numeric" autoComplete="off" required help="22 números. Revisamos los dígitos verificadores." />
      <TextInput name="alias" label="Alias (opcional)" autoComplete="off" help="De 6 a 20 caracteres: letras, números, puntos o guiones." />
      <TextInput name="holderName" label="Titular" required />
      <TextInput name="holderCuit" label="CUIT del titular" inputMode="numeric" required />
      <TextInput name="bankName" label="Banco" help="Si lo dejás vacío, lo sacamos del CBU." />
    </div>
  );
}

export default function BankAccountsPage() {
  const { organizationName, accounts } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const posting = useIsPosting();
  const key = useRemountKey(reply, accounts);
  return (
    <BackofficePage
      narrow
      title="Cuentas bancarias"
      lead={
        <>
          Las cuentas de {organizationName}. Quienes compran entradas que se pagan por transferencia ven la cuenta marcada para transferencias; las
          extracciones también se pagan a estas cuentas. Agregar, editar, marcar o borrar una cuenta te pide la verificación en dos pasos.
        </>
      }
    >
      <div className="flex flex-col gap-6">
        {accounts.length === 0 ? <EmptyState>Todavía no cargaste ninguna cuenta bancaria.</EmptyState> : null}
        {accounts.map((account) => (
          <Card
            key={account.id}
            title={
              <span className="flex flex-wrap items-center gap-2">
                {account.bankName}
                {account.forTicketTransfers ? <Badge tone="success">Para transferencias de entradas</Badge> : null}
              </span>
            }
          >
            <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]" data-testid="bank-account">
              <dt className="text-[var(--muted)]">{account.kind}</dt>
              <dd className="font-mono">{account.cbuLabel}</dd>
              {account.alias ? (
                <>
                  <dt className="text-[var(--muted)]">Alias</dt>
                  <dd className="font-mono">{account.alias}</dd>
                </>
              ) : null}
              <dt className="text-[var(--muted)]">Titular</dt>
              <dd>
                {account.holderName} · CUIT {account.holderCuit}
              </dd>
            </dl>
            <details className="mt-4" open={reply?.target === account.id || undefined}>
              <summary className="cursor-pointer text-sm font-bold text-[var(--accent)]">Editar</summary>
              <BackofficeForm reply={reply} target={account.id} idPrefix={`a-${account.id.slice(0, 8)}`} defaults={{ ...account, forTicketTransfers: account.forTicketTransfers ? "on" : "" }} schema={bankAccountFormSchema} key={key} method="post" className="mt-3 flex flex-col gap-2">
                <input type="hidden" name="id" value={account.id} />
                <FormErrorList reply={reply} target={account.id} />
                <AccountFields />
                <Checkbox name="forTicketTransfers" label="Usarla para las transferencias de entradas" />
                <div className="flex justify-end">
                  <Button type="submit" name="intent" value="update" pending={posting} pendingLabel="Guardando…">
                    Guardar cambios
                  </Button>
                </div>
              </BackofficeForm>
            </details>
            <Form noValidate method="post" className="mt-4 flex flex-wrap justify-end gap-2">
              <input type="hidden" name="id" value={account.id} />
              {account.forTicketTransfers ? null : (
                <Button type="submit" variant="secondary" name="intent" value="mark">
                  Usar para transferencias de entradas
                </Button>
              )}
              <ConfirmButton
                name="intent"
                value="delete"
                className="rounded-lg border border-[var(--border)] px-4 py-2 text-sm font-bold"
                title="¿Borrar la cuenta bancaria?"
                description="Deja de mostrarse a quienes compran y no se puede elegir para extracciones."
                confirmLabel="Borrar"
              >
                Borrar
              </ConfirmButton>
            </Form>
          </Card>
        ))}

        <Card title="Nueva cuenta">
          <BackofficeForm reply={reply} target="new" idPrefix="new" defaults={{}} schema={bankAccountFormSchema} key={`new-${key}`} method="post" className="flex flex-col gap-2">
            <FormErrorList reply={reply} target="new" />
            <AccountFields />
            <Checkbox name="forTicketTransfers" label="Usarla para las transferencias de entradas" help="La primera cuenta que cargás se usa siempre." />
            <div className="flex justify-end">
              <Button type="submit" name="intent" value="create" pending={posting} pendingLabel="Guardando…">
                Agregar cuenta
              </Button>
            </div>
          </BackofficeForm>
        </Card>
      </div>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
