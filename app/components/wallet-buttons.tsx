import { buttonClasses } from "#app/components/ui/Button";

/** A ticket's wallet links (server/wallet/buyer.ts walletLinksFor): null for a wallet that is not set up. */
export interface WalletButtonLinks {
  apple: string | null;
  google: string | null;
}

/**
 * "Agregar a Apple Wallet" / "Guardar en Google Wallet" under a ticket: plain
 * links (no JavaScript), only for the wallets that are set up.
 */
export function WalletButtons({ links, label }: { links: WalletButtonLinks | null | undefined; label: string }) {
  if (!links || (!links.apple && !links.google)) return null;
  return (
    <div className="mt-2 flex flex-wrap gap-2" role="group" aria-label={label}>
      {links.apple ? (
        <a href={links.apple} className={buttonClasses("secondary")} download>
          Agregar a Apple Wallet
        </a>
      ) : null}
      {links.google ? (
        <a href={links.google} className={buttonClasses("secondary")} rel="nofollow">
          Guardar en Google Wallet
        </a>
      ) : null}
    </div>
  );
}
