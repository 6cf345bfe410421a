import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { couponForRedeemLink } from "#server/coupons/coupons";
import { readSavedCart, savedCartCookie, type StoredCart } from "#app/lib/cart.server";
import { withFlash } from "#app/lib/flash.server";
import { getRequestContext } from "#app/lib/session.server";
import { buttonClasses } from "#app/components/ui/Button";

export const meta: MetaFunction = () => [{ title: "Cupón no disponible · Tribuna" }, { name: "robots", content: "noindex" }];

/**
 * `/canjear/{couponId}`: the coupon's link. A coupon that can be used now is
 * saved in the event's saved cart (cookie `incomplete-saved-order--{event}`)
 * and the buyer lands on the event page with it applied. A paused, expired
 * or used-up one goes to the event with the reason; an unknown one is a
 * friendly page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  const found = await couponForRedeemLink(ctx, params.couponId ?? "");
  headers.set("Cache-Control", "private, no-store");
  if (found.ok) {
    const saved: StoredCart = readSavedCart(request, found.eventSlug) ?? { items: [] };
    headers.append("Set-Cookie", savedCartCookie(found.eventSlug, { ...saved, couponCode: found.code }));
    return redirect(`/eventos/${encodeURIComponent(found.eventSlug)}`, {
      headers: withFlash(headers, { type: "success", message: `¡Listo! Cupón ${found.code} aplicado: ${found.label}` }),
    });
  }
  if (found.eventSlug) {
    return redirect(`/eventos/${encodeURIComponent(found.eventSlug)}`, { headers: withFlash(headers, { type: "error", message: found.message }) });
  }
  return data({ message: "El link no corresponde a ningún cupón vigente." }, { status: 404, headers });
}

export default function RedeemCouponPage() {
  const { message } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto flex w-full max-w-xl flex-col items-center gap-4 px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">Este cupón no está disponible</h1>
      <p className="text-[var(--muted)]">{message} Si te lo pasó una productora, pedile el link de nuevo.</p>
      <Link to="/" className={buttonClasses("primary", "min-h-11")}>
        Ver eventos
      </Link>
    </main>
  );
}
