import type { MetaFunction } from "@remix-run/node";
import { holdDuration } from "#common/pricing";
import { Link } from "@remix-run/react";
import { ContentPage, Section, type TocEntry } from "#app/components/layout/ContentPage";
import { PATHS, WITHDRAWAL_LABEL } from "#app/components/layout/navigation";

export const meta: MetaFunction = () => [
  { title: "Ayuda · Tribuna" },
  {
    name: "description",
    content:
      "Cómo comprar entradas, pagar con Mercado Pago o transferencia, encontrar tus entradas y su QR, enviarlas a otra persona y pedir una devolución.",
  },
];

const TOC: TocEntry[] = [
  { id: "como-comprar", title: "Cómo comprar entradas" },
  { id: "medios-de-pago", title: "Medios de pago" },
  { id: "mis-tickets", title: "Dónde están mis entradas y el código QR" },
  { id: "enviar-entradas", title: "Enviar entradas a otra persona" },
  { id: "el-dia-del-evento", title: "El día del evento" },
  { id: "devoluciones", title: "Devoluciones y Botón de arrepentimiento" },
  { id: "cancelaciones", title: "Si el evento se cancela o cambia de fecha" },
  { id: "fila-virtual", title: "La fila virtual y su sorteo" },
  { id: "problemas-frecuentes", title: "Problemas frecuentes" },
  { id: "organizadores", title: "Si organizás eventos" },
  { id: "contacto", title: "Contacto" },
];

export default function Help() {
  return (
    <ContentPage
      title="Ayuda"
      lead="Todo lo que necesitás saber para comprar tus entradas, encontrarlas y usarlas el día del evento."
      toc={TOC}
    >
      <Section id="como-comprar" title="Cómo comprar entradas">
        <ol>
          <li>
            <strong>Elegí el evento.</strong> Buscalo en <Link to={PATHS.home}>Eventos</Link> o entrá con el enlace que te
            compartió el organizador o un relacionista público.
          </li>
          <li>
            <strong>Elegí la fecha, el tipo de entrada y la cantidad.</strong> Cada organizador define cuántas entradas se
            pueden llevar en una misma compra. Si tenés un cupón de descuento o un código de acceso (por ejemplo, para una
            preventa), ingresalo antes de continuar.
          </li>
          <li>
            <strong>Ingresá o creá tu cuenta.</strong> Podés hacerlo con tu email y contraseña o con un enlace que te
            mandamos por correo. Te pedimos nombre, apellido, documento y teléfono porque las entradas se emiten a nombre
            de quien compra.
          </li>
          <li>
            <strong>Pagá.</strong> Al confirmar la compra reservamos tus entradas durante <strong>{holdDuration("MERCADO_PAGO")}</strong> para
            que completes el pago con Mercado Pago. Si el pago no se acredita en ese tiempo, la reserva se libera y las
            entradas vuelven a estar a la venta.
          </li>
          <li>
            <strong>Listo.</strong> Cuando el pago se aprueba, te mandamos un email de confirmación y tus entradas aparecen
            en <Link to={PATHS.myTickets}>Mis tickets</Link>.
          </li>
        </ol>
        <p>
          Antes de pagar vas a ver el detalle completo: precio de cada entrada, descuentos, el cargo por servicio y el
          total. No hay costos que aparezcan después.
        </p>
      </Section>

      <Section id="medios-de-pago" title="Medios de pago">
        <h3>Mercado Pago</h3>
        <p>
          Pagás en el sitio de Mercado Pago con tarjeta de crédito, tarjeta de débito o dinero disponible en tu cuenta. Las
          cuotas y promociones bancarias son las que Mercado Pago ofrezca en ese momento. Tribuna nunca ve ni guarda los
          datos de tu tarjeta.
        </p>
        <p>
          La mayoría de los pagos se aprueban en el momento. Si Mercado Pago deja tu pago “en proceso”, esperá el email de
          confirmación antes de volver a intentar: así evitás pagar dos veces.
        </p>
        <h3>Transferencia bancaria</h3>
        <p>Algunos organizadores aceptan transferencia. En ese caso:</p>
        <ul>
          <li>Te mostramos el CBU, CVU o alias de la cuenta del organizador y el importe exacto a transferir.</li>
          <li>
            Hacés la transferencia desde tu banco o billetera virtual y subís el comprobante (foto o PDF) en la misma
            pantalla.
          </li>
          <li>
            Tus entradas quedan reservadas hasta <strong>{holdDuration("BANK_TRANSFER")}</strong> mientras el organizador verifica el pago. Cuando
            lo aprueba, te llegan por email; si lo rechaza, te avisamos el motivo.
          </li>
        </ul>
      </Section>

      <Section id="mis-tickets" title="Dónde están mis entradas y el código QR">
        <p>
          Tus entradas están siempre en <Link to={PATHS.myTickets}>Mis tickets</Link>, ingresando con la misma cuenta con la
          que compraste. También te llegan por email después de la compra.
        </p>
        <ul>
          <li>
            Cada entrada tiene su propio <strong>código QR</strong>. Si compraste varias, cada persona necesita el suyo.
          </li>
          <li>Podés mostrarlo desde el celular (con el brillo alto) o llevarlo impreso.</li>
          <li>
            El QR se puede usar <strong>una sola vez</strong>: el primero que se escanea en la puerta es el que entra. No lo
            publiques en redes ni lo compartas con personas que no van a usar esa entrada.
          </li>
          <li>
            Si el evento tiene menú, las consumiciones que compres por anticipado también tienen su QR y se canjean en la
            barra.
          </li>
        </ul>
      </Section>

      <Section id="enviar-entradas" title="Enviar entradas a otra persona">
        <p>
          Si compraste entradas para otras personas o al final no podés ir, podés enviar una entrada desde{" "}
          <Link to={PATHS.myTickets}>Mis tickets</Link> ingresando el email de quien la va a usar. Es gratis.
        </p>
        <ul>
          <li>La persona recibe la entrada por email y la ve en su propia cuenta.</li>
          <li>Al enviarla, el QR anterior deja de valer y se genera uno nuevo a nombre de quien la recibe.</li>
          <li>Solo se pueden enviar entradas que todavía no fueron usadas.</li>
        </ul>
        <p>
          Comprá solamente en Tribuna o en los canales del organizador: las entradas que se revenden por fuera pueden estar
          duplicadas o ya usadas, y en ese caso no podemos ayudarte.
        </p>
      </Section>

      <Section id="el-dia-del-evento" title="El día del evento">
        <ul>
          <li>Llevá tu QR y tu documento: el organizador puede pedirlo para controlar la edad mínima o el nombre.</li>
          <li>Revisá en la página del evento el horario de apertura de puertas y la dirección del lugar.</li>
          <li>
            El ingreso y la permanencia están sujetos a las condiciones del organizador y del lugar, dentro de lo que
            permite la ley.
          </li>
        </ul>
      </Section>

      <Section id="devoluciones" title="Devoluciones y Botón de arrepentimiento">
        <p>
          Si compraste por internet, tenés derecho a arrepentirte de la compra sin dar explicaciones (Ley 24.240 de Defensa
          del Consumidor y Disposición 954/2025). Para entradas a espectáculos:
        </p>
        <ul>
          <li>
            Tenés <strong>10 días corridos</strong> desde que recibiste las entradas o el comprobante de pago (lo que haya
            pasado primero), sin importar la fecha del evento.
          </li>
          <li>
            Tenés que pedirlo con <strong>al menos 24 horas de anticipación</strong> al inicio del evento.
          </li>
        </ul>
        <p>
          Para pedirlo, usá el <Link to={PATHS.refunds}>{WITHDRAWAL_LABEL}</Link>. No necesitás cuenta: alcanza con el
          código de tu compra (está en el email de confirmación) y el email con el que compraste. Al enviarlo te damos un{" "}
          <strong>código de gestión</strong> en el momento para que puedas seguir tu solicitud.
        </p>
        <p>
          Si la solicitud está dentro del plazo legal, la devolución es automática: anulamos las entradas y te reintegramos
          el total que pagaste, cargo por servicio incluido, por el mismo medio de pago. Con Mercado Pago, el dinero en cuenta
          vuelve en el momento; en tarjetas de crédito puede verse en el próximo resumen o en el siguiente, según el banco.
          Si pagaste por transferencia, te lo devolvemos a la cuenta desde la que transferiste.
        </p>
        <p>
          Si el plazo ya pasó, igual podés hacer el pedido desde el mismo botón: se lo enviamos al organizador, que decide
          si acepta la devolución y te avisamos la respuesta por email.
        </p>
      </Section>

      <Section id="cancelaciones" title="Si el evento se cancela o cambia de fecha">
        <ul>
          <li>
            <strong>Evento cancelado:</strong> te devolvemos el total pagado, cargo por servicio incluido, por el mismo medio
            de pago. No tenés que hacer nada: te avisamos por email cuando se procese.
          </li>
          <li>
            <strong>Evento reprogramado:</strong> tus entradas siguen valiendo para la nueva fecha. Si no podés ir, podés
            pedir la devolución dentro del plazo que te informemos por email.
          </li>
          <li>
            <strong>Cambios importantes</strong> (por ejemplo, del artista principal o del lugar a otra ciudad): te avisamos
            y podés pedir la devolución si ya no te interesa ir.
          </li>
        </ul>
      </Section>

      <Section id="fila-virtual" title="La fila virtual y su sorteo">
        <p>
          En las salidas a la venta con mucha demanda, el organizador puede activar la fila virtual: para comprar hay que
          sumarse a la fila en <code>/fila/…</code> (con tu cuenta: un lugar por persona, entres desde donde entres) y esperar
          tu turno. Cuando llega, tenés unos minutos para comprar; la página se actualiza sola y no hace falta recargarla.
        </p>
        <p>
          Quienes se suman antes de la apertura son todos iguales: a la hora de apertura sorteamos su orden. Quienes llegan
          después van detrás, por orden de llegada. Si se agotan las entradas, te lo decimos en la misma página para que no
          esperes de más.
        </p>
        <h3>Cómo verificar el sorteo</h3>
        <ol>
          <li>
            Antes de la apertura, la página de la fila muestra la <strong>huella</strong>: el SHA-256 (en hexadecimal) de una
            semilla secreta. Con la huella publicada, nadie puede cambiar la semilla después sin que se note.
          </li>
          <li>
            En la apertura revelamos la <strong>semilla</strong>. Comprobá que su SHA-256 es la huella que viste:
            <code>printf %s SEMILLA | sha256sum</code>.
          </li>
          <li>
            La clave de cada lugar es el HMAC-SHA256 de su identificador (el que ves en la página de la fila) con la semilla
            como clave: <code>printf %s ID | openssl dgst -sha256 -hmac SEMILLA</code>. El orden de quienes se sumaron antes
            de la apertura es el de esas claves de menor a mayor.
          </li>
        </ol>
      </Section>

      <Section id="problemas-frecuentes" title="Problemas frecuentes">
        <h3>Pagué y no me llegó el email</h3>
        <p>
          Revisá la carpeta de spam o promociones y entrá a <Link to={PATHS.myTickets}>Mis tickets</Link>: si el pago se
          aprobó, tus entradas ya están ahí. Si pagaste con Mercado Pago y el pago quedó pendiente, puede tardar unos
          minutos en acreditarse.
        </p>
        <h3>Me cobraron dos veces</h3>
        <p>
          Escribinos con los dos comprobantes. Si se emitieron entradas de más, podés arrepentirte de la compra que no querés
          con el <Link to={PATHS.refunds}>{WITHDRAWAL_LABEL}</Link> o te ayudamos a resolverlo.
        </p>
        <h3>Me equivoqué en mis datos</h3>
        <p>
          Podés corregir tu nombre, documento y teléfono en <Link to={PATHS.myAccount}>Mi cuenta</Link>. Si la entrada ya
          fue emitida con datos incorrectos y el evento controla nombre o documento, escribinos antes del día del evento.
        </p>
        <h3>No puedo ingresar a mi cuenta</h3>
        <p>
          Desde <Link to={PATHS.signIn}>Ingresar</Link> podés pedir un enlace de acceso por email o recuperar tu contraseña
          con un código de 6 dígitos.
        </p>
      </Section>

      <Section id="organizadores" title="Si organizás eventos">
        <p>
          Con Tribuna podés publicar tus eventos, vender entradas con Mercado Pago o transferencia, mandar invitaciones,
          crear cupones, trabajar con relacionistas públicos y controlar el ingreso escaneando los QR desde el celular.
          Conocé más en <Link to="/organizador/landing">Vendé entradas con Tribuna</Link>.
        </p>
      </Section>

      <Section id="contacto" title="Contacto">
        <p>
          Escribinos a <a href="mailto:ayuda@tribuna.ar">ayuda@tribuna.ar</a> de lunes a viernes de 9 a 18 h (hora de
          Argentina). Para responderte más rápido, incluí el código de tu compra y el email con el que compraste.
        </p>
        <p>
          Para consultas sobre el evento en sí (horarios, lugar, edad mínima, lo que se puede llevar), el responsable es el
          organizador: sus datos de contacto están en la página del evento.
        </p>
        <p>
          Si no resolvemos tu reclamo, podés acudir a la autoridad de defensa del consumidor de tu jurisdicción o presentarlo
          en la{" "}
          <a href="https://www.argentina.gob.ar/defensadelconsumidor" rel="noopener noreferrer" target="_blank">
            Ventanilla Federal Única de Reclamos de Defensa del Consumidor
          </a>
          .
        </p>
        <p>
          Consultá también nuestros <Link to={PATHS.terms}>Términos y condiciones</Link>.
        </p>
      </Section>
    </ContentPage>
  );
}
