import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { EMAIL_STATUS_LABELS, emailKindLabel } from "#common/campaigns";
import { Link, useLoaderData } from "@remix-run/react";
import { assertDevMailbox, framedHtml, getLoggedEmail } from "#app/lib/dev-mailbox.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.email.subject ?? "Correo"} · Buzón de desarrollo` },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  assertDevMailbox(request);
  const email = await getLoggedEmail(params.id ?? "");
  if (!email) throw new Response("Not Found", { status: 404 });
  return { email: { ...email, html: framedHtml(email.html) } };
}

/** One email: its links (clickable), the HTML as the person sees it, and the text version. */
export default function DevMailboxEmailPage() {
  const { email } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto w-full max-w-5xl px-4 py-10">
      <Link to="/dev/correos" className="text-sm text-[var(--accent)] hover:underline">
        ← Todos los correos
      </Link>
      <h1 className="mt-2 text-2xl font-bold">{email.subject}</h1>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-[var(--muted)]">Para</dt>
        <dd>{email.to}</dd>
        <dt className="text-[var(--muted)]">Fecha</dt>
        <dd className="tabular-nums">{email.createdAt}</dd>
        <dt className="text-[var(--muted)]">Tipo</dt>
        <dd>{emailKindLabel(email.kind)}</dd>
        <dt className="text-[var(--muted)]">Estado</dt>
        <dd>
          {EMAIL_STATUS_LABELS[email.status] ?? email.status}
          {email.error ? ` (${email.error})` : ""}
        </dd>
      </dl>

      {email.links.length ? (
        <section aria-labelledby="links" className="mt-6">
          <h2 id="links" className="text-lg font-bold">
            Enlaces
          </h2>
          <ul className="mt-2 flex flex-col gap-1 text-sm">
            {email.links.map((href) => (
              <li key={href} className="break-all">
                <a href={href} className="text-[var(--accent)] underline">
                  {href}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {email.attachments.length ? (
        <section aria-labelledby="attachments" className="mt-6">
          <h2 id="attachments" className="text-lg font-bold">
            Adjuntos
          </h2>
          <ul className="mt-2 flex flex-col gap-1 text-sm" data-testid="email-attachments">
            {email.attachments.map((file) => (
              <li key={file.id}>
                <a href={`/dev/correos/${email.id}/adjuntos/${file.id}`} className="text-[var(--accent)] underline">
                  {file.filename}
                </a>{" "}
                <span className="text-[var(--muted)]">
                  ({file.contentType}, {Math.ceil(file.size / 1024)} KB{file.inline ? ", en el cuerpo" : ""})
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="html" className="mt-6">
        <h2 id="html" className="text-lg font-bold">
          Cómo se ve
        </h2>
        <iframe
          title={`Correo: ${email.subject}`}
          srcDoc={email.html}
          sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation"
          className="mt-2 h-[560px] w-full rounded-xl border border-[var(--border)] bg-white"
        />
      </section>

      <section aria-labelledby="text" className="mt-6">
        <h2 id="text" className="text-lg font-bold">
          Texto
        </h2>
        <pre className="mt-2 whitespace-pre-wrap break-all rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4 text-sm" data-testid="email-text">
          {email.text}
        </pre>
      </section>
    </main>
  );
}
