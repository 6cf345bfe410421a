/** The emails of the bank-transfer flow (inline-styled like server/email/templates.ts). */
const escape = (value: string) => value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function transferRejectedEmail(input: { firstName: string; orderCode: string; eventName: string; reason: string | null; statusUrl: string; eventUrl: string }) {
  const reason = input.reason ? `<p>Motivo: ${escape(input.reason)}</p>` : "";
  return {
    subject: `No pudimos confirmar tu transferencia (${input.orderCode})`,
    html: `<!doctype html><html lang="es"><body style="margin:0;background:#0f1115;font-family:Arial,sans-serif;color:#e6e6e6">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="100%" style="max-width:520px;background:#171a21;border-radius:12px;padding:24px"><tr><td>
<p style="color:#14b8a6;font-size:20px;font-weight:bold;margin:0 0 16px">Tribuna</p>
<h1 style="font-size:20px;margin:0 0 16px;color:#ffffff">No pudimos confirmar tu transferencia</h1>
<p>Hola ${escape(input.firstName)}: el organizador de ${escape(input.eventName)} revisó tu compra ${escape(input.orderCode)} y no encontró la transferencia, así que la compra quedó cancelada y las entradas volvieron a la venta.</p>
${reason}
<p>Si ya transferiste, escribile al organizador con el comprobante. Si querés, podés volver a comprar.</p>
<p><a href="${escape(input.eventUrl)}" style="display:inline-block;background:#14b8a6;color:#0f1115;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">Ver el evento</a></p>
<p style="font-size:12px;color:#8a8f98;word-break:break-all">Tu compra: ${escape(input.statusUrl)}</p>
</td></tr></table></td></tr></table></body></html>`,
    text: `Hola ${input.firstName}: el organizador de ${input.eventName} no encontró la transferencia de tu compra ${input.orderCode}, así que la compra quedó cancelada.${input.reason ? `\nMotivo: ${input.reason}` : ""}\nSi ya transferiste, escribile al organizador con el comprobante. Volver a comprar: ${input.eventUrl}\nTu compra: ${input.statusUrl}`,
  };
}
