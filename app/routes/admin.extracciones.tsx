import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTime } from "#common/dates";
import { formatMoney } from "#common/money";
import { approveWithdrawal, listWithdrawals, markWithdrawalPaid, rejectWithdrawal } from "#server/payouts/withdrawals";
import { CONFLICT_FORM_STATUS, errorMessages, isFormError, pageErrorResponse } from "#app/lib/domain-errors.server";
import { requireUser } from "#app/lib/session.server";
import { secondFactorRedirect } from "#app/lib/backoffice.server";
import { Button } from "#app/components/ui/Button";
import { fieldInputClasses } from "#app/components/ui/Field";
import { AdminNav } from "#app/components/admin/AdminNav";

export const meta: MetaFunction = () => [{ title: "Extracciones por aprobar · Tribuna" }, { name: "robots", content: "noindex" }];

const PATH = "/admin/extracciones";

/**
 * The platform team's withdrawal queue (docs/payouts.md): every
 * organization's requested and approved withdrawals, to approve, mark paid
 * with the transfer's reference, or reject with a reason. The domain checks
 * the admin role; anyone else gets the 403 page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  headers.set("Cache-Control", "private, no-store");
  try {
    const open = await listWithdrawals(ctx, { statuses: ["requested", "approved"], limit: 200 });
    return data(
      {
        withdrawals: open.map((w) => ({
          id: w.id,
          organizationName: w.organizationName,
          amount: formatMoney(w.amount),
          status: w.status,
          account: `${w.bankName} · terminada en ${w.cbuEnd}`,
          requestedAt: formatDateTime(w.requestedAt),
        })),
      },
      { headers },
    );
  } catch (error) {
    throw pageErrorResponse(error, { headers });
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  const intent = String(form.get("intent") ?? "");
  try {
    if (intent === "approve") await approveWithdrawal(ctx, id);
    else if (intent === "paid") await markWithdrawalPaid(ctx, { id, transferReference: String(form.get("transferReference") ?? "") });
    else if (intent === "reject") await rejectWithdrawal(ctx, { id, reason: String(form.get("reason") ?? "") });
    return redirect(PATH, { headers });
  } catch (error) {
    const verify = secondFactorRedirect(error, PATH, headers);
    if (verify) return verify;
    if (isFormError(error)) {
      return data({ id, error: errorMessages(error)[0] }, { status: CONFLICT_FORM_STATUS[error.code], headers });
    }
    throw pageErrorResponse(error, { headers });
  }
}

export default function WithdrawalQueue() {
  const { withdrawals } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  return (
    <main className="mx-auto flex w-full max-w-4xl flex-col gap-5 px-4 py-8">
      <AdminNav />
      <h1 className="text-2xl font-bold">Extracciones por aprobar</h1>
      {withdrawals.length === 0 ? (
        <p className="text-[var(--muted)]">No hay extracciones pendientes.</p>
      ) : (
        <ul className="flex flex-col gap-4">
          {withdrawals.map((w) => (
            <li key={w.id} className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4">
              <p className="font-bold">
                {w.organizationName}: {w.amount} · {w.status === "requested" ? "pedida" : "aprobada"}
              </p>
              <p className="text-sm">{w.account}</p>
              <p className="text-sm text-[var(--muted)]">Pedida el {w.requestedAt}</p>
              {failure?.id === w.id ? (
                <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
                  {failure.error}
                </p>
              ) : null}
              <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
                {w.status === "requested" ? (
                  <Form noValidate method="post">
                    <input type="hidden" name="id" value={w.id} />
                    <Button type="submit" name="intent" value="approve">
                      Aprobar
                    </Button>
                  </Form>
                ) : (
                  <Form noValidate method="post" className="flex items-end gap-2">
                    <input type="hidden" name="id" value={w.id} />
                    <label className="flex flex-col text-sm">
                      Referencia de la transferencia
                      <input name="transferReference" required minLength={3} className={fieldInputClasses} />
                    </label>
                    <Button type="submit" name="intent" value="paid">
                      Marcar pagada
                    </Button>
                  </Form>
                )}
                <Form noValidate method="post" className="flex items-end gap-2">
                  <input type="hidden" name="id" value={w.id} />
                  <label className="flex flex-col text-sm">
                    Motivo del rechazo
                    <input name="reason" required minLength={5} className={fieldInputClasses} />
                  </label>
                  <Button type="submit" name="intent" value="reject" variant="danger">
                    Rechazar
                  </Button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
