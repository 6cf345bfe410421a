import { Link } from "@remix-run/react";

/**
 * Said on every page that just sent an email when no email leaves the server (no SMTP configured): where to read
 * it. `href` comes from the loader or action (app/lib/dev-mailbox.server.ts mailboxLink); null shows nothing.
 */
export function MailboxNotice({ href, className = "mt-2" }: { href: string | null | undefined; className?: string }) {
  if (!href) return null;
  return (
    <p className={className} data-testid="aviso-buzon">
      Como no hay un servidor de correo configurado, el correo no sale de esta computadora: lo podés leer en{" "}
      <Link to={href} className="font-bold underline">
        el buzón de correos (/dev/correos)
      </Link>
      .
    </p>
  );
}
