import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { delay, http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import { ARCA_URLS } from "#server/invoicing/config";
import { escapeXml, xmlElement, xmlText } from "#server/invoicing/soap";

/**
 * ARCA's WSAA and WSFEv1 (homologación), mocked at the HTTP level with the SOAP answers of ARCA's manuals:
 * - WSAA loginCms: takes the CMS, answers a loginTicketResponse (escaped, inside loginCmsReturn) with a
 *   token, a sign and an expirationTime 12 hours on.
 * - WSFEv1 FECompUltimoAutorizado, FECAESolicitar, FECompConsultar, keeping what it authorised per point of
 *   sale and voucher type, and refusing a number that is not the next one (observation 10016), as ARCA does.
 * `arcaMock.next` decides FECAESolicitar's next answers: approve (default), reject, observe, or
 * authorise-then-hang (ARCA authorises it and the answer never arrives in time).
 */

const SOAP = (body: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>${body}</soap:Body></soap:Envelope>`;
const xml = (body: string) => new HttpResponse(SOAP(body), { headers: { "Content-Type": "text/xml; charset=utf-8" } });

export interface MockVoucher {
  pointOfSale: number;
  voucherType: number;
  number: number;
  docType: number;
  docNumber: string;
  date: string;
  total: string;
  net: string;
  vat: string;
  cae: string;
  caeDue: string;
  ivaCondition: string | null;
  associated: { type: number; number: number } | null;
  observations: { code: number; msg: string }[];
}

type NextAnswer = { kind: "approve" } | { kind: "reject"; obs: { code: number; msg: string }[]; errors?: { code: number; msg: string }[] } | { kind: "observe"; obs: { code: number; msg: string }[] } | { kind: "hang"; ms: number };

export const arcaMock = {
  vouchers: new Map<string, MockVoucher>(),
  requests: [] as { operation: string; body: string }[],
  logins: [] as { cms: string }[],
  next: [] as NextAnswer[],
  /** How long WSAA's tickets last. */
  ticketHours: 12,
  /** When set, WSFEv1 answers HTTP 503 (ARCA down). */
  down: false,
  /** Tokens WSFEv1 no longer accepts (error 600), as after ARCA revokes a ticket. */
  refusedTokens: new Set<string>(),
};

export function resetArcaMock() {
  // Authorised vouchers stay (ARCA never forgets them); what a test asked for does not.
  arcaMock.requests = [];
  arcaMock.logins = [];
  arcaMock.next = [];
  arcaMock.down = false;
  arcaMock.refusedTokens = new Set();
}

const key = (pointOfSale: number, type: number, number: number) => `${pointOfSale}/${type}/${number}`;

export function lastNumber(pointOfSale: number, type: number): number {
  let last = 0;
  for (const v of arcaMock.vouchers.values()) if (v.pointOfSale === pointOfSale && v.voucherType === type) last = Math.max(last, v.number);
  return last;
}

let cae = 76_000_000_000_000;
let ticket = 0;

const wsaa = http.post(ARCA_URLS.homologacion.wsaa, async ({ request }) => {
  const body = await request.text();
  arcaMock.logins.push({ cms: xmlText(body, "in0") ?? "" });
  ticket += 1;
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "-00:00");
  const response = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<loginTicketResponse version="1.0">
    <header>
        <source>CN=wsaahomo, O=AFIP, C=AR, SERIALNUMBER=CUIT 33693450239</source>
        <destination>SERIALNUMBER=CUIT 20111111112, CN=tribuna</destination>
        <uniqueId>${ticket}</uniqueId>
        <generationTime>${iso(now)}</generationTime>
        <expirationTime>${iso(now + arcaMock.ticketHours * 3600_000)}</expirationTime>
    </header>
    <credentials>
        <token>PD94bWwgdmVyc2lvbj0iMS4wIiBlbmNvZGluZz0iVVRGLTgiIHN0YW5kYWxvbmU9InllcyI/Pgo8c3N-${ticket}</token>
        <sign>ZKQ1hM8mlLqT2Qd1ZtW4lJYrCcxXg2y5x+${ticket}=</sign>
    </credentials>
</loginTicketResponse>`;
  return new HttpResponse(
    `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body><loginCmsResponse xmlns="http://wsaa.view.sua.dvadac.desein.afip.gov"><loginCmsReturn>${escapeXml(response)}</loginCmsReturn></loginCmsResponse></soapenv:Body></soapenv:Envelope>`,
    { headers: { "Content-Type": "text/xml;charset=utf-8" } },
  );
});

function errs(list: { code: number; msg: string }[], wrapper: string, item: string) {
  return list.length ? `<${wrapper}>${list.map((e) => `<${item}><Code>${e.code}</Code><Msg>${escapeXml(e.msg)}</Msg></${item}>`).join("")}</${wrapper}>` : "";
}

const wsfe = http.post(ARCA_URLS.homologacion.wsfe, async ({ request }) => {
  if (arcaMock.down) return new HttpResponse("Service Unavailable", { status: 503 });
  const action = (request.headers.get("SOAPAction") ?? "").replace(/"/g, "");
  const operation = action.slice(action.lastIndexOf("/") + 1);
  const body = await request.text();
  arcaMock.requests.push({ operation, body });
  if (!xmlText(body, "Token") || !xmlText(body, "Sign") || arcaMock.refusedTokens.has(xmlText(body, "Token") ?? "")) {
    return xml(`<${operation}Response xmlns="http://ar.gov.afip.dif.FEV1/"><${operation}Result>${errs([{ code: 600, msg: "ValidacionDeToken: No validaron las fechas del token GenTime, ExpTime, NowUTC" }], "Errors", "Err")}</${operation}Result></${operation}Response>`);
  }

  if (operation === "FECompUltimoAutorizado") {
    const pointOfSale = Number(xmlText(body, "PtoVta"));
    const type = Number(xmlText(body, "CbteTipo"));
    return xml(
      `<FECompUltimoAutorizadoResponse xmlns="http://ar.gov.afip.dif.FEV1/"><FECompUltimoAutorizadoResult><PtoVta>${pointOfSale}</PtoVta><CbteTipo>${type}</CbteTipo><CbteNro>${lastNumber(pointOfSale, type)}</CbteNro></FECompUltimoAutorizadoResult></FECompUltimoAutorizadoResponse>`,
    );
  }

  if (operation === "FECompConsultar") {
    const found = arcaMock.vouchers.get(key(Number(xmlText(body, "PtoVta")), Number(xmlText(body, "CbteTipo")), Number(xmlText(body, "CbteNro"))));
    if (!found) {
      return xml(
        `<FECompConsultarResponse xmlns="http://ar.gov.afip.dif.FEV1/"><FECompConsultarResult>${errs([{ code: 602, msg: "No existen datos en nuestros registros para los parametros ingresados." }], "Errors", "Err")}</FECompConsultarResult></FECompConsultarResponse>`,
      );
    }
    return xml(
      `<FECompConsultarResponse xmlns="http://ar.gov.afip.dif.FEV1/"><FECompConsultarResult><ResultGet><Concepto>2</Concepto><DocTipo>${found.docType}</DocTipo><DocNro>${found.docNumber}</DocNro><CbteDesde>${found.number}</CbteDesde><CbteHasta>${found.number}</CbteHasta><CbteFch>${found.date}</CbteFch><ImpTotal>${found.total}</ImpTotal><ImpTotConc>0</ImpTotConc><ImpNeto>${found.net}</ImpNeto><ImpOpEx>0</ImpOpEx><ImpTrib>0</ImpTrib><ImpIVA>${found.vat}</ImpIVA><FchServDesde>${found.date}</FchServDesde><FchServHasta>${found.date}</FchServHasta><FchVtoPago>${found.date}</FchVtoPago><MonId>PES</MonId><MonCotiz>1</MonCotiz>${errs(found.observations, "Observaciones", "Obs")}<Resultado>A</Resultado><CodAutorizacion>${found.cae}</CodAutorizacion><EmisionTipo>CAE</EmisionTipo><FchVto>${found.caeDue}</FchVto><FchProceso>${found.date}101530</FchProceso><PtoVta>${found.pointOfSale}</PtoVta><CbteTipo>${found.voucherType}</CbteTipo></ResultGet></FECompConsultarResult></FECompConsultarResponse>`,
    );
  }

  if (operation === "FECAESolicitar") {
    const cab = xmlElement(body, "FeCabReq") ?? "";
    const det = xmlElement(body, "FECAEDetRequest") ?? "";
    const pointOfSale = Number(xmlText(cab, "PtoVta"));
    const type = Number(xmlText(cab, "CbteTipo"));
    const number = Number(xmlText(det, "CbteDesde"));
    const date = xmlText(det, "CbteFch") ?? "";
    const assoc = xmlElement(det, "CbteAsoc");
    const answer = arcaMock.next.shift() ?? { kind: "approve" };
    const head = (result: string) =>
      `<FeCabResp><Cuit>${xmlText(body, "Cuit")}</Cuit><PtoVta>${pointOfSale}</PtoVta><CbteTipo>${type}</CbteTipo><FchProceso>${date}101530</FchProceso><CantReg>1</CantReg><Resultado>${result}</Resultado><Reproceso>N</Reproceso></FeCabResp>`;
    const detail = (result: string, obs: { code: number; msg: string }[], caeValue = "", due = "") =>
      `<FeDetResp><FECAEDetResponse><Concepto>2</Concepto><DocTipo>${xmlText(det, "DocTipo")}</DocTipo><DocNro>${xmlText(det, "DocNro")}</DocNro><CbteDesde>${number}</CbteDesde><CbteHasta>${number}</CbteHasta><CbteFch>${date}</CbteFch><Resultado>${result}</Resultado>${errs(obs, "Observaciones", "Obs")}<CAE>${caeValue}</CAE><CAEFchVto>${due}</CAEFchVto></FECAEDetResponse></FeDetResp>`;
    const wrap = (inner: string) => xml(`<FECAESolicitarResponse xmlns="http://ar.gov.afip.dif.FEV1/"><FECAESolicitarResult>${inner}</FECAESolicitarResult></FECAESolicitarResponse>`);

    if (number !== lastNumber(pointOfSale, type) + 1) {
      return wrap(head("R") + detail("R", [{ code: 10016, msg: `El numero o fecha del comprobante no se corresponde con el proximo a autorizar. Consultar metodo FECompUltimoAutorizado.` }]));
    }
    if (answer.kind === "reject") return wrap(head("R") + detail("R", answer.obs) + errs(answer.errors ?? [], "Errors", "Err"));
    cae += 1;
    const voucher: MockVoucher = {
      pointOfSale,
      voucherType: type,
      number,
      docType: Number(xmlText(det, "DocTipo")),
      docNumber: xmlText(det, "DocNro") ?? "",
      date,
      total: xmlText(det, "ImpTotal") ?? "",
      net: xmlText(det, "ImpNeto") ?? "",
      vat: xmlText(det, "ImpIVA") ?? "",
      cae: String(cae),
      caeDue: "20261208",
      ivaCondition: xmlText(det, "CondicionIVAReceptorId"),
      associated: assoc ? { type: Number(xmlText(assoc, "Tipo")), number: Number(xmlText(assoc, "Nro")) } : null,
      observations: answer.kind === "observe" ? answer.obs : [],
    };
    arcaMock.vouchers.set(key(pointOfSale, type, number), voucher);
    if (answer.kind === "hang") await delay(answer.ms);
    return wrap(head("A") + detail("A", voucher.observations, voucher.cae, voucher.caeDue));
  }
  return new HttpResponse("Unknown operation", { status: 500 });
});

export const arcaHandlers = [wsaa, wsfe];

/** A self-signed test certificate and its key (PEM), made with openssl, as ARCA's homologación accepts. */
export function selfSignedCertificate(cuit = "20111111112"): { cert: string; key: string; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arca-"));
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "2", "-subj", `/C=AR/O=Tribuna/CN=tribuna/serialNumber=CUIT ${cuit}`, "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")],
    { stdio: "ignore" },
  );
  return { cert: fs.readFileSync(path.join(dir, "cert.pem"), "utf8"), key: fs.readFileSync(path.join(dir, "key.pem"), "utf8"), dir };
}

/**
 * ARCA (homologación) for the calling test file: a throwaway certificate, the ARCA_* variables (env() reads them
 * lazily; `variables` adds or overrides some, given the certificate), and MSW standing in for WSAA and WSFEv1
 * only, reset after each test; the certificate's folder is removed after the file.
 */
export function arcaForThisFile(variables: (certificate: { cert: string; key: string; dir: string }) => Record<string, string> = () => ({})) {
  const certificate = selfSignedCertificate();
  Object.assign(process.env, { ARCA_CUIT: "20-11111111-2", ARCA_POINT_OF_SALE: "7", ARCA_CERT: certificate.cert, ARCA_KEY: certificate.key, ARCA_TIMEOUT_MS: "5000", ...variables(certificate) });
  const server = setupServer(...arcaHandlers);
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => {
    server.resetHandlers();
    resetArcaMock();
  });
  afterAll(() => {
    server.close();
    fs.rmSync(certificate.dir, { recursive: true, force: true });
  });
  return certificate;
}
