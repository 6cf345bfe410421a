/** Minimal, inline-styled HTML that every mail client shows the same. */
function layout(title: string, body: string): string {
  return `<!doctype html><html lang="es"><body style="margin:0;background:#0f1115;font-family:Arial,sans-serif;color:#e6e6e6">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="100%" style="max-width:520px;background:#171a21;border-radius:12px;padding:24px">
<tr><td><p style="color:#14b8a6;font-size:20px;font-weight:bold;margin:0 0 16px">Tribuna</p>
<h1 style="font-size:20px;margin:0 0 16px;color:#ffffff">${title}</h1>${body}
<p style="font-size:12px;color:#8a8f98;margin-top:24px">Si no pediste este correo, podés ignorarlo.</p></td></tr></table>
</td></tr></table></body></html>`;
}

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function signInLinkEmail(link: string, userFound: boolean) {
  const action = userFound ? "Ingresar a Tribuna" : "Crear mi cuenta en Tribuna";
  return {
    subject: userFound ? "Tu enlace para ingresar a Tribuna" : "Terminá de crear tu cuenta en Tribuna",
    html: layout(
      action,
      `<p>Tocá el botón para continuar. El enlace vence en 30 minutos y sirve una sola vez.</p>
<p><a href="${escape(link)}" style="display:inline-block;background:#14b8a6;color:#0f1115;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">${action}</a></p>
<p style="font-size:12px;color:#8a8f98;word-break:break-all">${escape(link)}</p>`,
    ),
    text: `${action}: ${link}\nEl enlace vence en 30 minutos y sirve una sola vez.`,
  };
}

export function recoveryCodeEmail(code: string) {
  return {
    subject: `Tu código para recuperar la contraseña: ${code}`,
    html: layout(
      "Recuperá tu contraseña",
      `<p>Ingresá este código en Tribuna para elegir una contraseña nueva. Vence en 15 minutos.</p>
<p style="font-size:32px;letter-spacing:8px;font-weight:bold;color:#ffffff">${escape(code)}</p>`,
    ),
    text: `Tu código para recuperar la contraseña es ${code}. Vence en 15 minutos.`,
  };
}
