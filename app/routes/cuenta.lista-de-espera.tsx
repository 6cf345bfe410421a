import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTime, formatEventStart } from "#common/dates";
import { isDomainError } from "#server/errors";
import { leaveWaitlist, myWaitlist } from "#server/waitlist/waitlist";
import { withFlash } from "#app/lib/flash.server";
import { requireUser } from "#app/lib/session.server";
import { AccountPage } from "#app/components/account/AccountPage";
import { Button, buttonClasses } from "#app/components/ui/Button";

export const meta: MetaFunction = () => [{ title: "Mis listas de espera · Tribuna" }, { name: "robots", content: "noindex" }];

const units = (n: number) => (n === 1 ? "1 entrada" : `${n} entradas`);

/** `/cuenta/lista-de-espera`: the signed-in person's places in waiting lists, with the offer to claim and a way to leave. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  headers.set("Cache-Control", "private, no-cache");
  const entries = await myWaitlist(ctx);
  return data(
    {
      entries: entries.map((e) => {
        const offerOpen = e.status === "offered" && e.offer?.status === "offered";
        const state =
          e.status === "offered"
            ? `Te guardamos ${units(e.offer?.quantity ?? e.quantity)} hasta el ${formatDateTime(e.offer?.expiresAt ?? new Date())}.`
            : e.status === "waiting"
              ? e.ahead === 0
                ? "Sos la primera persona de la lista."
                : e.ahead === 1
                  ? "Hay 1 persona antes que vos."
                  : `Hay ${e.ahead} personas antes que vos.`
              : e.status === "claimed"
                ? "Reclamaste las entradas."
                : e.status === "missed"
                  ? "No reclamaste las entradas a tiempo y pasaron a la siguiente persona."
                  : "Saliste de la lista.";
        return {
          id: e.id,
          eventName: e.eventName,
          eventSlug: e.eventSlug,
          date: formatEventStart(e.startsAt),
          what: `${units(e.quantity)} · ${e.ticketTypeName ?? "Cualquier entrada"}`,
          state,
          open: e.status === "waiting" || e.status === "offered",
          claimPath: offerOpen ? e.offer!.claimPath : null,
        };
      }),
    },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  const form = await request.formData();
  try {
    const entry = await leaveWaitlist(ctx, String(form.get("entryId") ?? ""));
    return redirect("/cuenta/lista-de-espera", { headers: withFlash(headers, { type: "success", message: `Saliste de la lista de espera de ${entry.eventName}.` }) });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return data({ message: error.message }, { status: error.code === "NOT_FOUND" ? 404 : 409, headers });
  }
}

export default function MyWaitlistPage() {
  const { entries } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <AccountPage title="Mis listas de espera" description="Los eventos agotados en los que te anotaste. Si vuelven entradas, te avisamos por email.">
      {reply?.message ? (
        <p role="alert" className="mb-4 rounded-lg border border-red-500 p-3 text-sm text-red-700 dark:text-red-400">
          {reply.message}
        </p>
      ) : null}
      {entries.length ? (
        <ul className="flex flex-col gap-4">
          {entries.map((e) => (
            <li key={e.id} className="rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4">
              <p className="font-bold">
                <Link to={`/eventos/${e.eventSlug}`} className="hover:underline">
                  {e.eventName}
                </Link>
              </p>
              <p className="text-sm">{e.date}</p>
              <p className="text-sm">{e.what}</p>
              <p className="mt-1 text-sm">{e.state}</p>
              {e.open ? (
                <div className="mt-3 flex flex-wrap gap-3">
                  {e.claimPath ? (
                    <Link to={e.claimPath} className={buttonClasses("primary", "min-h-11")}>
                      Reclamar mis entradas
                    </Link>
                  ) : null}
                  <Form method="post">
                    <input type="hidden" name="entryId" value={e.id} />
                    <Button type="submit" variant="secondary">
                      {e.claimPath ? "No las quiero: salir de la lista" : "Salir de la lista"}
                    </Button>
                  </Form>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p>No estás en ninguna lista de espera. Cuando un evento se agota, podés anotarte desde su página.</p>
      )}
      <p className="mt-6 text-sm">
        <Link to="/cuenta/mis-tickets" className="text-[var(--accent)] underline underline-offset-2">
          Mis tickets
        </Link>
      </p>
    </AccountPage>
  );
}
