import { emailLayout, escapeHtml as escape } from "#server/email/templates";
import { brand } from "#common/brand";

/** The buyer's email when the organizer rejects a bank transfer. */
export function transferRejectedEmail(input: { firstName: string; orderCode: string; eventName: string; reason: string | null; statusUrl: string; eventUrl: string }) {
  const reason = input.reason ? `<p>Motivo: ${escape(input.reason)}</p>` : "";
  return {
    subject: `No pudimos confirmar tu transferencia (${input.orderCode})`,
    html: emailLayout(
      "No pudimos confirmar tu transferencia",
      `<p>Hola ${escape(input.firstName)}: el organizador de ${escape(input.eventName)} revisó tu compra ${escape(input.orderCode)} y no encontró la transferencia, así que la compra quedó cancelada y las entradas volvieron a la venta.</p>
${reason}
<p>Si ya transferiste, escribile al organizador con el comprobante. Si querés, podés volver a comprar.</p>
<p><a href="${escape(input.eventUrl)}" style="display:inline-block;background:${brand.email.button};color:${brand.email.buttonText};padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">Ver el evento</a></p>
<p style="font-size:12px;color:${brand.email.muted};word-break:break-all">Tu compra: ${escape(input.statusUrl)}</p>`,
      "",
    ),
    text: `Hola ${input.firstName}: el organizador de ${input.eventName} no encontró la transferencia de tu compra ${input.orderCode}, así que la compra quedó cancelada.${input.reason ? `\nMotivo: ${input.reason}` : ""}\nSi ya transferiste, escribile al organizador con el comprobante. Volver a comprar: ${input.eventUrl}\nTu compra: ${input.statusUrl}`,
  };
}
