import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { emailKindLabel } from "#common/campaigns";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { assertDevMailbox, listLoggedEmails } from "#app/lib/dev-mailbox.server";
import { buttonClasses } from "#app/components/ui/Button";
import { fieldInputClasses } from "#app/components/ui/Field";

export const meta: MetaFunction = () => [{ title: "Buzón de desarrollo · Tribuna" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  assertDevMailbox(request);
  const to = new URL(request.url).searchParams.get("to");
  return { to: to ?? "", emails: await listLoggedEmails({ to }) };
}

/** The last emails the app sent (or only logged, without SMTP), newest first. */
export default function DevMailboxPage() {
  const { to, emails } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto w-full max-w-5xl px-4 py-10">
      <h1 className="text-2xl font-bold">Buzón de desarrollo</h1>
      <p className="mt-1 text-sm text-[var(--muted)]">
        Los últimos correos que mandó la app. Sin un servidor de correo (SMTP) configurado no salen: quedan solo acá. En producción solo se puede abrir desde la misma computadora donde corre Tribuna, o con ENABLE_DEV_MAILBOX=true.
      </p>
      <Form noValidate method="get" className="mt-6 flex flex-wrap items-end gap-2">
        <div className="flex min-w-64 flex-1 flex-col gap-1">
          <label htmlFor="to" className="text-sm font-medium">
            Destinatario
          </label>
          <input id="to" name="to" type="email" defaultValue={to} placeholder="persona@example.com" className={fieldInputClasses} />
        </div>
        <button type="submit" className={buttonClasses("secondary")}>
          Filtrar
        </button>
        {to ? (
          <Link to="/dev/correos" className={buttonClasses("ghost")}>
            Ver todos
          </Link>
        ) : null}
      </Form>
      {emails.length === 0 ? (
        <p className="mt-8 text-[var(--muted)]">Todavía no hay correos{to ? ` para ${to}` : ""}.</p>
      ) : (
        <div className="mt-6 overflow-x-auto rounded-xl border border-[var(--border)]">
          <table className="w-full text-left text-sm">
            <thead className="bg-[var(--surface)] text-[var(--muted)]">
              <tr>
                <th scope="col" className="px-3 py-2">Fecha</th>
                <th scope="col" className="px-3 py-2">Para</th>
                <th scope="col" className="px-3 py-2">Asunto</th>
                <th scope="col" className="px-3 py-2">Tipo</th>
              </tr>
            </thead>
            <tbody>
              {emails.map((email) => (
                <tr key={email.id} className="border-t border-[var(--border)]">
                  <td className="whitespace-nowrap px-3 py-2 tabular-nums">{email.createdAt}</td>
                  <td className="px-3 py-2">
                    <Link to={`/dev/correos/${email.id}`} className="hover:underline">
                      {email.to}
                    </Link>
                  </td>
                  <td className="px-3 py-2">
                    <Link to={`/dev/correos/${email.id}`} className="text-[var(--accent)] hover:underline">
                      {email.subject}
                    </Link>
                  </td>
                  <td className="px-3 py-2 text-[var(--muted)]">{emailKindLabel(email.kind)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}
