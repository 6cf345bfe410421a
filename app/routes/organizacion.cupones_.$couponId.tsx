import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { couponLabel, requireCoupon, updateCoupon } from "#server/coupons/coupons";
import { getEventForOrganizer } from "#server/events/events";
import { appUrl } from "#server/env";
import { linkQrSvg } from "#server/tickets/qr";
import { toDateTimeInput } from "#common/dates";
import { failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { centavosToInput } from "#app/components/backoffice/format";
import { FormSnackbar } from "#app/components/backoffice/forms";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import type { FormReply } from "#app/components/backoffice/types";
import { COUPON_FORM_FIELDS, CouponForm, couponFormDefaults } from "#app/components/coupons/CouponForm";
import { couponInput, ticketKey } from "#app/lib/coupon-form.server";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Editar cupón · Tribuna" }];

/** One coupon: its form, uses and the /canjear link with its QR (drawn on the server, decisions 18). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "events:manage");
  const coupon = await guard(() => requireCoupon(bo.ctx, params.couponId ?? ""));
  const { event, tickets } = await guard(() => getEventForOrganizer(bo.ctx, coupon.eventId));
  const link = `${appUrl()}/canjear/${coupon.id}`;
  const qrSvg = await linkQrSvg(link);
  return data(
    {
      event: { id: event.id, name: event.name },
      tickets: tickets.filter((t) => t.status !== "deleted").map((t) => ({ id: t.id, name: t.name })),
      coupon: {
        id: coupon.id,
        code: coupon.code,
        kind: coupon.kind,
        value: coupon.value,
        maxUses: coupon.maxUses,
        uses: coupon.uses,
        status: coupon.status,
        label: couponLabel(coupon),
        ticketTypeIds: coupon.ticketTypeIds,
        validFrom: toDateTimeInput(coupon.validFrom),
        validUntil: toDateTimeInput(coupon.validUntil),
      },
      link,
      qrSvg,
    },
    { headers: bo.headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  try {
    await updateCoupon(bo.ctx, { ...couponInput(values), id: params.couponId ?? "" });
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, mapKey: ticketKey, fields: (key) => COUPON_FORM_FIELDS.has(key) });
  }
  return savedRedirect(`/organizacion/cupones${bo.query()}`, bo.headers);
}

export default function EditCouponPage() {
  const { event, tickets, coupon, link, qrSvg } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  return (
    <BackofficePage
      narrow
      title={`Cupón ${coupon.code}`}
      lead={`${event.name} · ${coupon.label} · Usos: ${coupon.uses} / ${coupon.maxUses ?? "sin límite"}${coupon.status === "paused" ? " · Pausado" : ""}`}
    >
      <div className="flex flex-col gap-6">
        <Card title="Link de canje">
          <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
            <div className="w-40 shrink-0 rounded-lg bg-white p-1" role="img" aria-label={`Código QR del link de canje de ${coupon.code}`} dangerouslySetInnerHTML={{ __html: qrSvg }} />
            <div className="flex min-w-0 flex-1 flex-col gap-2 text-sm">
              <p>Quien abre este link llega al evento con el cupón aplicado.</p>
              <label htmlFor="canje-link" className="font-medium">
                Link
              </label>
              <input id="canje-link" readOnly value={link} onFocus={(e) => e.currentTarget.select()} className="w-full rounded-lg border border-[var(--border)] bg-[var(--bg)] px-2 py-2 font-mono text-xs" />
            </div>
          </div>
        </Card>
        <Card title="Datos del cupón">
          <CouponForm reply={reply} defaults={couponFormDefaults(coupon, tickets, centavosToInput)} tickets={tickets} submitLabel="Guardar cambios" />
        </Card>
      </div>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
