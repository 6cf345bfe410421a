import { useEffect, useState } from "react";

const SDK_URL = "https://sdk.mercadopago.com/js/v2";

interface MercadoPagoBricks {
  create(kind: "wallet", containerId: string, settings: Record<string, unknown>): Promise<unknown>;
}
declare global {
  interface Window {
    MercadoPago?: new (publicKey: string, options: { locale: string }) => { bricks(): MercadoPagoBricks };
  }
}

let sdk: Promise<void> | undefined;
function loadSdk(): Promise<void> {
  sdk ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = SDK_URL;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      sdk = undefined;
      reject(new Error("No se pudo cargar Mercado Pago"));
    };
    document.head.appendChild(script);
  });
  return sdk;
}

/**
 * Mercado Pago's own "Pagar con Mercado Pago" button (Wallet Brick), built in
 * the browser with the configured public key and the order's Checkout Pro
 * preference. It only replaces our plain form button (`fallback`) once it
 * has rendered: without JavaScript, on a connection that cannot load the SDK,
 * or if Mercado Pago answers with an error, the buyer keeps our button, which
 * posts to the server and is redirected to the same preference.
 */
export function MercadoPagoWallet({ publicKey, preferenceId, fallback }: { publicKey: string; preferenceId: string; fallback: React.ReactNode }) {
  const [ready, setReady] = useState(false);
  const containerId = `mp-wallet-${preferenceId.replace(/[^\w-]/g, "")}`;
  useEffect(() => {
    let cancelled = false;
    loadSdk()
      .then(() => {
        if (cancelled || !window.MercadoPago) return;
        const mp = new window.MercadoPago(publicKey, { locale: "es-AR" });
        return mp.bricks().create("wallet", containerId, {
          initialization: { preferenceId, redirectMode: "self" },
          callbacks: {
            onReady: () => !cancelled && setReady(true),
            onError: () => !cancelled && setReady(false),
          },
        });
      })
      .catch(() => !cancelled && setReady(false));
    return () => {
      cancelled = true;
    };
  }, [publicKey, preferenceId, containerId]);
  return (
    <>
      <div id={containerId} data-mercadopago-wallet="" />
      {ready ? null : fallback}
    </>
  );
}
