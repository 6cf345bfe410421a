import type { MetaFunction } from "@remix-run/node";
import { holdDuration } from "#common/pricing";
import { Link } from "@remix-run/react";
import { ContentPage, Section, type TocEntry } from "#app/components/layout/ContentPage";
import { PATHS, WITHDRAWAL_LABEL } from "#app/components/layout/navigation";

export const meta: MetaFunction = () => [
  { title: "Términos y condiciones · Tribuna" },
  {
    name: "description",
    content:
      "Condiciones de uso de Tribuna para compradores y organizadores: cargo por servicio, devoluciones, derecho de arrepentimiento, datos personales y jurisdicción.",
  },
];

const TOC: TocEntry[] = [
  { id: "alcance", title: "1. Qué es Tribuna y a quién se aplican estos términos" },
  { id: "definiciones", title: "2. Definiciones" },
  { id: "cuenta", title: "3. Tu cuenta" },
  { id: "compra", title: "4. Compra de entradas" },
  { id: "cargo-por-servicio", title: "5. Cargo por servicio" },
  { id: "entradas", title: "6. Entradas, acceso y transferencias" },
  { id: "organizador", title: "7. Responsabilidad del organizador" },
  { id: "cancelaciones", title: "8. Cancelación, reprogramación y cambios del evento" },
  { id: "arrepentimiento", title: "9. Derecho de arrepentimiento" },
  { id: "otras-devoluciones", title: "10. Otras devoluciones y contracargos" },
  { id: "organizadores", title: "11. Condiciones para organizadores" },
  { id: "datos-personales", title: "12. Datos personales" },
  { id: "propiedad-intelectual", title: "13. Propiedad intelectual y uso aceptable" },
  { id: "responsabilidad", title: "14. Disponibilidad y responsabilidad" },
  { id: "modificaciones", title: "15. Modificaciones" },
  { id: "jurisdiccion", title: "16. Ley aplicable y jurisdicción" },
  { id: "contacto", title: "17. Contacto" },
];

export default function Terms() {
  return (
    <ContentPage
      title="Términos y condiciones"
      lead="Las reglas para comprar entradas y para vender entradas de tus eventos en Tribuna. Leelas antes de usar el servicio."
      updated="noviembre de 2026"
      toc={TOC}
    >
      <Section id="alcance" title="1. Qué es Tribuna y a quién se aplican estos términos">
        <p>
          Tribuna es una plataforma de venta de entradas y de gestión de eventos en la República Argentina. Los
          organizadores publican sus eventos y venden sus entradas a través de Tribuna; las personas que compran las
          adquieren al organizador de cada evento, y Tribuna presta el servicio de venta, emisión, cobro y control de
          acceso.
        </p>
        <p>
          Estos términos se aplican a todas las personas que usan el sitio: a quienes compran entradas o consumiciones
          (“compradores”) y a quienes publican eventos (“organizadores”). Al crear una cuenta o al comprar, aceptás estos
          términos. Nada de lo que dicen limita los derechos que te reconocen la Ley 24.240 de Defensa del Consumidor, el
          Código Civil y Comercial de la Nación y las normas que los complementan; si alguna cláusula los contradijera, se
          tendrá por no escrita.
        </p>
      </Section>

      <Section id="definiciones" title="2. Definiciones">
        <ul>
          <li>
            <strong>Evento:</strong> el espectáculo, fiesta, función, partido u otra actividad publicada por un organizador,
            con una o más fechas.
          </li>
          <li>
            <strong>Organizador:</strong> la persona humana o jurídica que produce el evento y lo publica en Tribuna. Es
            quien vende las entradas y quien debe realizar el evento.
          </li>
          <li>
            <strong>Entrada:</strong> el derecho a ingresar a una fecha de un evento, representado por un código QR único.
          </li>
          <li>
            <strong>Compra:</strong> una o más entradas o consumiciones pagadas en una misma operación, identificada
            con un código.
          </li>
          <li>
            <strong>Cargo por servicio:</strong> el importe que cobra Tribuna por el servicio de venta, detallado en el punto
            5.
          </li>
        </ul>
      </Section>

      <Section id="cuenta" title="3. Tu cuenta">
        <ul>
          <li>
            Para comprar necesitás una cuenta con datos verdaderos y actualizados: nombre, apellido, documento, email y
            teléfono. Las entradas se emiten con esos datos.
          </li>
          <li>
            Tenés que ser mayor de 18 años para crear una cuenta y comprar. Los menores pueden asistir a los eventos que lo
            permitan con entradas compradas por una persona adulta responsable.
          </li>
          <li>
            Cuidá tu contraseña y los enlaces de acceso que te enviamos por email: lo que se haga con tu cuenta se considera
            hecho por vos, salvo que nos avises que alguien más accedió.
          </li>
          <li>
            Podemos suspender cuentas usadas para fraudes, reventa masiva o para afectar el funcionamiento del sitio,
            avisándote el motivo.
          </li>
        </ul>
      </Section>

      <Section id="compra" title="4. Compra de entradas">
        <ul>
          <li>
            Los precios se muestran en pesos argentinos e incluyen los impuestos que correspondan. Antes de pagar vas a ver
            el precio de cada entrada, los descuentos aplicados, el cargo por servicio y el total.
          </li>
          <li>
            Al confirmar una compra reservamos las entradas durante {holdDuration("MERCADO_PAGO")} para que pagues con Mercado Pago, o durante {holdDuration("BANK_TRANSFER")}
            si el organizador acepta transferencia bancaria y elegís ese medio. Si el pago no se acredita en ese
            plazo, la reserva vence y las entradas vuelven a la venta.
          </li>
          <li>
            La compra queda confirmada cuando el pago se aprueba (o cuando el organizador aprueba el comprobante de
            transferencia). En ese momento emitimos las entradas y te las enviamos por email.
          </li>
          <li>
            El organizador define el precio, la cantidad disponible, los límites por compra, las preventas, los códigos de
            acceso y la edad mínima de cada evento.
          </li>
          <li>
            Los pagos con Mercado Pago se procesan en su plataforma, bajo sus propios términos. Tribuna no recibe ni guarda
            los datos de tu tarjeta.
          </li>
          <li>
            Si un pago se aprueba cuando tu reserva ya había vencido, emitimos las entradas si todavía quedan disponibles; si
            no, te devolvemos el pago completo automáticamente.
          </li>
        </ul>
      </Section>

      <Section id="cargo-por-servicio" title="5. Cargo por servicio">
        <p>
          Por cada pedido pago, Tribuna cobra un cargo por servicio que remunera la venta en línea, el procesamiento del
          pago, la emisión y el envío de las entradas, el control de acceso y la atención a compradores. Su importe se
          informa de forma clara y separada antes de que confirmes el pago, y forma parte del total que pagás.
        </p>
        <p>
          El cargo por servicio se devuelve, junto con el precio de las entradas, cuando el evento se cancela y cuando
          ejercés el derecho de arrepentimiento. En las devoluciones que el organizador acepte por otros motivos, se
          devuelve lo que el organizador informe, que nunca será menos que el precio de las entradas. Las entradas de
          cortesía (invitaciones) no tienen cargo por servicio.
        </p>
      </Section>

      <Section id="entradas" title="6. Entradas, acceso y transferencias">
        <ul>
          <li>
            Cada entrada tiene un código QR único que se puede usar una sola vez: ingresa el primero que lo presenta. No
            compartas ni publiques tu QR.
          </li>
          <li>
            Podés enviar una entrada que todavía no se usó a otra persona desde Mis tickets, sin costo. Al hacerlo, el QR
            anterior queda anulado y se emite uno nuevo para quien la recibe.
          </li>
          <li>
            Está prohibida la reventa de entradas con fines de lucro. Las entradas obtenidas por fuera de Tribuna o de los
            canales del organizador pueden ser falsas, estar duplicadas o anuladas, y no tienen garantía.
          </li>
          <li>
            El ingreso y la permanencia están sujetos a las condiciones del organizador y del lugar (por ejemplo, edad
            mínima, presentación del documento o elementos no permitidos), que deben ser razonables, informarse de antemano
            y no pueden ser discriminatorias, conforme a la Ley 26.370 y a la Ley 23.592.
          </li>
          <li>
            Las consumiciones compradas en el menú de un evento se entregan con su propio QR y se canjean en la barra durante
            esa fecha del evento.
          </li>
        </ul>
      </Section>

      <Section id="organizador" title="7. Responsabilidad del organizador">
        <p>El organizador de cada evento es responsable de:</p>
        <ul>
          <li>Realizar el evento en la fecha, el horario y el lugar publicados, con el contenido anunciado.</li>
          <li>
            Contar con las habilitaciones, permisos, seguros, medidas de seguridad y condiciones de accesibilidad que exijan
            las autoridades, y con las autorizaciones de derechos de autor y de intérpretes que correspondan.
          </li>
          <li>
            Que la información publicada sobre el evento (descripción, imágenes, edad mínima, restricciones) sea verdadera y
            completa.
          </li>
          <li>Cumplir sus obligaciones fiscales y emitir los comprobantes que correspondan por la venta de sus entradas.</li>
          <li>Atender las devoluciones que correspondan por cancelación, reprogramación o cambios del evento.</li>
        </ul>
        <p>
          Tribuna no produce los eventos que publica, salvo que se indique expresamente. Esto no impide que, como comprador,
          ejerzas frente a Tribuna los derechos que te reconoce la ley: vamos a canalizar tu reclamo ante el organizador y a
          procesar las devoluciones que correspondan por medio de la plataforma.
        </p>
      </Section>

      <Section id="cancelaciones" title="8. Cancelación, reprogramación y cambios del evento">
        <ul>
          <li>
            <strong>Cancelación:</strong> si una fecha se cancela, devolvemos a cada comprador el total pagado (precio de las
            entradas y cargo por servicio) por el mismo medio de pago, sin que tenga que pedirlo. Te avisamos por email.
          </li>
          <li>
            <strong>Reprogramación:</strong> las entradas siguen siendo válidas para la nueva fecha. Si no podés asistir,
            podés pedir la devolución total dentro del plazo que te informemos, que no será menor a 10 días corridos desde el
            aviso.
          </li>
          <li>
            <strong>Cambios sustanciales:</strong> si cambia el artista principal, el lugar pasa a otra localidad o el evento
            cambia de manera relevante, podés pedir la devolución total dentro del mismo plazo.
          </li>
        </ul>
        <p>
          Los plazos de acreditación de una devolución dependen del medio de pago: el dinero en cuenta de Mercado Pago se
          acredita en el momento; en tarjetas de crédito puede verse en el resumen siguiente o en el posterior, según el banco
          emisor.
        </p>
      </Section>

      <Section id="arrepentimiento" title="9. Derecho de arrepentimiento">
        <p>
          Como compraste a distancia, tenés derecho a revocar la compra sin dar motivos y sin costo, conforme al artículo 34
          de la Ley 24.240, los artículos 1110 a 1116 del Código Civil y Comercial y la Disposición 954/2025 de la
          Subsecretaría de Defensa del Consumidor y Lealtad Comercial (que reemplazó a la Resolución 424/2020). Para entradas
          a espectáculos y eventos artísticos o deportivos:
        </p>
        <ul>
          <li>
            El plazo es de <strong>10 días corridos</strong> contados desde que recibiste las entradas o el comprobante de
            pago, lo que ocurra primero, sin importar la fecha del evento.
          </li>
          <li>
            Tenés que comunicarlo con <strong>al menos 24 horas de anticipación</strong> al inicio del evento.
          </li>
          <li>
            Lo pedís con el <Link to={PATHS.refunds}>{WITHDRAWAL_LABEL}</Link>, visible en todas las páginas del sitio, sin
            necesidad de tener cuenta ni de hacer otro trámite: alcanza con el código de la compra y su email.
          </li>
          <li>
            Al enviar la solicitud te damos un código de gestión en el momento, y siempre dentro de las 24 horas, para que
            puedas seguirla.
          </li>
          <li>
            Si la solicitud cumple el plazo, anulamos las entradas de la compra y te devolvemos el total pagado, cargo por
            servicio incluido, por el mismo medio de pago.
          </li>
        </ul>
        <p>
          Las solicitudes hechas fuera de ese plazo se envían al organizador, que puede aceptarlas. Los organizadores pueden
          ofrecer condiciones de devolución más amplias que las legales, nunca más restrictivas.
        </p>
      </Section>

      <Section id="otras-devoluciones" title="10. Otras devoluciones y contracargos">
        <ul>
          <li>
            Fuera de los casos anteriores, no hay devolución por no asistir al evento, por llegar tarde o por no cumplir las
            condiciones de ingreso informadas, salvo que el organizador lo acepte.
          </li>
          <li>
            Si desconocés un pago ante tu banco o Mercado Pago (contracargo), las entradas de esa compra se anulan mientras
            se resuelve el reclamo. Antes de hacerlo, escribinos: muchas veces lo resolvemos más rápido.
          </li>
          <li>Podemos anular compras hechas con medios de pago robados o con fraude comprobado, devolviendo lo cobrado.</li>
        </ul>
      </Section>

      <Section id="organizadores" title="11. Condiciones para organizadores">
        <h3>Alta y datos</h3>
        <p>
          Para publicar eventos tenés que crear una organización con datos reales: nombre, CUIT y datos de contacto. Quien la
          crea declara tener facultades para obligarla. Podés sumar operadores y personal con distintos permisos; sos
          responsable de lo que hagan con tu organización.
        </p>
        <h3>Publicación y condiciones del servicio</h3>
        <p>
          Antes de vender, aceptás para cada evento las condiciones del servicio que se te muestran, incluido el cargo por
          servicio. No se pueden publicar eventos ilícitos, que inciten a la violencia o a la discriminación, ni usar
          contenidos de terceros sin autorización. Podemos pausar la venta de un evento que incumpla estas reglas.
        </p>
        <h3>Cobros y liquidaciones</h3>
        <ul>
          <li>
            <strong>Mercado Pago:</strong> si conectás tu cuenta, los pagos se acreditan en ella y Tribuna retiene su cargo
            por servicio en el mismo momento.
          </li>
          <li>
            <strong>Transferencia bancaria:</strong> los compradores te transfieren a la cuenta que indiques y vos aprobás o
            rechazás cada comprobante antes de que venza la reserva de {holdDuration("BANK_TRANSFER")}.
          </li>
          <li>
            Los movimientos de cada organización (ventas, cargos, devoluciones y contracargos) se registran en su saldo. Podés
            pedir extracciones a cuentas bancarias a nombre de la organización (mismo CUIT). Podemos retener el saldo
            necesario para cubrir devoluciones y contracargos pendientes hasta que el evento se realice.
          </li>
        </ul>
        <h3>Devoluciones</h3>
        <p>
          Aceptás que Tribuna procese automáticamente las devoluciones por derecho de arrepentimiento y por cancelación, y que
          las descuente de tu saldo o de tu cuenta de Mercado Pago. Las demás solicitudes te llegan para que las apruebes o
          rechaces.
        </p>
        <h3>Datos de los compradores</h3>
        <p>
          Recibís los datos de quienes compran entradas para tus eventos solo para organizar el evento, controlar el ingreso
          y cumplir obligaciones legales. Sos responsable de tratarlos conforme a la Ley 25.326. Podés enviarles
          comunicaciones desde Tribuna, que incluyen siempre la opción de darse de baja; no podés venderlos ni cederlos.
        </p>
        <h3>Píxeles publicitarios</h3>
        <p>
          Si configurás un píxel publicitario para tu evento, sos responsable del uso que hagas de los datos que recolecte y
          de informarlo en tus propias políticas.
        </p>
      </Section>

      <Section id="datos-personales" title="12. Datos personales">
        <p>
          Tribuna trata tus datos personales conforme a la Ley 25.326 de Protección de los Datos Personales y su
          reglamentación.
        </p>
        <ul>
          <li>
            <strong>Qué datos:</strong> los de tu cuenta (nombre, apellido, documento, email, teléfono y, si los cargás,
            domicilio y provincia), tus compras y entradas, y datos técnicos de uso del sitio.
          </li>
          <li>
            <strong>Para qué:</strong> emitir y enviarte tus entradas, procesar pagos y devoluciones, controlar el acceso,
            atender tus consultas, prevenir fraudes, cumplir obligaciones legales y mejorar el servicio.
          </li>
          <li>
            <strong>Con quién los compartimos:</strong> con el organizador del evento para el que comprás (nombre, documento,
            email y teléfono), con Mercado Pago para procesar el pago y con los proveedores que nos prestan servicios de
            infraestructura y de envío de correos, que solo pueden usarlos para prestarnos ese servicio. No vendemos tus
            datos.
          </li>
          <li>
            <strong>Cookies:</strong> usamos cookies necesarias para mantener tu sesión y recordar preferencias como el tema
            del sitio. Si están activas, usamos herramientas de medición y de detección de errores que pasan por nuestro
            propio dominio. Si llegás a un evento con un enlace de un organizador que incluye un píxel publicitario, ese píxel
            se carga en esa visita.
          </li>
          <li>
            <strong>Tus derechos:</strong> podés pedir acceso, rectificación, actualización o supresión de tus datos
            escribiendo a <a href="mailto:datos@tribuna.ar">datos@tribuna.ar</a>. Respondemos los pedidos de acceso dentro
            de los 10 días corridos y los de rectificación o supresión dentro de los 5 días hábiles, como establece la ley.
          </li>
        </ul>
        <p>
          El titular de los datos personales tiene la facultad de ejercer el derecho de acceso a ellos en forma gratuita a
          intervalos no inferiores a seis meses, salvo que se acredite un interés legítimo al efecto, conforme al artículo
          14, inciso 3, de la Ley 25.326. La Agencia de Acceso a la Información Pública, en su carácter de órgano de control
          de la Ley 25.326, tiene la atribución de atender las denuncias y reclamos que interpongan quienes resulten
          afectados en sus derechos por incumplimiento de las normas vigentes en materia de protección de datos personales.
        </p>
      </Section>

      <Section id="propiedad-intelectual" title="13. Propiedad intelectual y uso aceptable">
        <p>
          La marca Tribuna, el diseño del sitio y su software pertenecen a Tribuna. Las imágenes y textos de cada evento
          pertenecen a su organizador o a quien lo haya autorizado. No está permitido copiar el sitio, extraer datos de forma
          automatizada, usar programas para comprar entradas en forma masiva ni intentar vulnerar su seguridad.
        </p>
      </Section>

      <Section id="responsabilidad" title="14. Disponibilidad y responsabilidad">
        <p>
          Trabajamos para que el sitio esté disponible y funcione correctamente, pero puede haber interrupciones por
          mantenimiento o por causas ajenas a nosotros (por ejemplo, fallas de los medios de pago o de los proveedores de
          internet). Si una falla nuestra te impide completar una compra ya pagada, emitimos las entradas o te devolvemos el
          pago. Respondemos por los daños que causemos conforme a la ley aplicable.
        </p>
      </Section>

      <Section id="modificaciones" title="15. Modificaciones">
        <p>
          Podemos actualizar estos términos. Publicamos la nueva versión en esta página con su fecha y, si los cambios son
          importantes, te avisamos por email. Los cambios no afectan las compras ya hechas, que se rigen por los términos
          vigentes al momento de la compra.
        </p>
      </Section>

      <Section id="jurisdiccion" title="16. Ley aplicable y jurisdicción">
        <p>Estos términos se rigen por las leyes de la República Argentina.</p>
        <ul>
          <li>
            <strong>Compradores:</strong> como consumidor, podés presentar tus reclamos ante la autoridad de aplicación de la
            Ley 24.240 de tu jurisdicción, en la{" "}
            <a href="https://www.argentina.gob.ar/defensadelconsumidor" rel="noopener noreferrer" target="_blank">
              Ventanilla Federal Única de Reclamos de Defensa del Consumidor
            </a>{" "}
            o ante los tribunales competentes de tu domicilio.
          </li>
          <li>
            <strong>Organizadores:</strong> las controversias entre Tribuna y los organizadores se someten a los tribunales
            ordinarios en lo comercial de la Ciudad Autónoma de Buenos Aires, con renuncia a cualquier otro fuero.
          </li>
        </ul>
      </Section>

      <Section id="contacto" title="17. Contacto">
        <p>
          Atención a compradores y organizadores: <a href="mailto:ayuda@tribuna.ar">ayuda@tribuna.ar</a>, de lunes a viernes
          de 9 a 18 h (hora de Argentina). Datos personales: <a href="mailto:datos@tribuna.ar">datos@tribuna.ar</a>. Más
          respuestas en <Link to={PATHS.help}>Ayuda</Link>.
        </p>
      </Section>
    </ContentPage>
  );
}
