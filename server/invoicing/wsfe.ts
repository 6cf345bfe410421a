import type { ArcaMessage } from "#server/db/schema";
import type { ArcaConfig } from "./config";
import { soapCall, xmlElement, xmlElements, xmlText } from "./soap";
import type { AccessTicket } from "./wsaa";

/*
 * WSFEv1, ARCA's electronic invoicing service (docs/invoicing.md): the three operations we use, with the
 * request and answer shapes of ARCA's WSFEv1 manual and WSDL (namespace http://ar.gov.afip.dif.FEV1/).
 */

export const WSFE_NAMESPACE = "http://ar.gov.afip.dif.FEV1/";

/** Errors of ARCA's own side or of our access ticket: nothing wrong with the voucher, try again later. */
const TRANSIENT_ERRORS = new Set([500, 501, 502, 600, 601, 602]);

/** ARCA answered with errors that are no verdict on the voucher (its service failing, our ticket refused). */
export class WsfeTransientError extends Error {
  constructor(readonly errors: ArcaMessage[]) {
    super(`ARCA respondió con error: ${errors.map((e) => `${e.code} ${e.message}`).join("; ")}`);
    this.name = "WsfeTransientError";
  }
}

/** One voucher as FECAESolicitar takes it (amounts in integer centavos). */
export interface VoucherRequest {
  pointOfSale: number;
  voucherType: number;
  number: number;
  /** yyyymmdd. */
  date: string;
  /** 1 products, 2 services, 3 both: our service charge is 2. */
  concept: 2;
  docType: number;
  docNumber: string;
  receiverIvaCondition: number;
  total: number;
  net: number;
  vat: number;
  /** A credit note's invoice. */
  associated?: { voucherType: number; pointOfSale: number; number: number; cuit: string; date: string };
}

export interface CaeResult {
  /** A approved, R rejected (ARCA's Resultado). */
  result: "A" | "R";
  cae: string | null;
  /** yyyy-mm-dd. */
  caeDueDate: string | null;
  errors: ArcaMessage[];
  observations: ArcaMessage[];
}

export interface AuthorisedVoucher {
  number: number;
  cae: string;
  caeDueDate: string;
  total: number;
  docType: number;
  docNumber: string;
  date: string;
  observations: ArcaMessage[];
}

/** ARCA's amounts: pesos with two decimals. */
export function arcaAmount(centavos: number): string {
  return (centavos / 100).toFixed(2);
}

function messages(xml: string, list: string, item: string): ArcaMessage[] {
  const block = xmlElement(xml, list);
  if (!block) return [];
  return xmlElements(block, item).map((entry) => ({ code: Number(xmlText(entry, "Code") ?? 0), message: xmlText(entry, "Msg") ?? "" }));
}

function yyyymmddToIso(value: string | null): string | null {
  return value && /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : null;
}

function auth(ticket: AccessTicket, config: ArcaConfig) {
  return `<ar:Auth><ar:Token>${ticket.token}</ar:Token><ar:Sign>${ticket.sign}</ar:Sign><ar:Cuit>${config.cuit}</ar:Cuit></ar:Auth>`;
}

async function call(config: ArcaConfig, operation: string, inner: string): Promise<string> {
  const body = await soapCall(config.urls.wsfe, `${WSFE_NAMESPACE}${operation}`, `<ar:${operation}>${inner}</ar:${operation}>`, { ar: WSFE_NAMESPACE }, config.timeoutMs);
  const result = xmlElement(body, `${operation}Result`);
  if (result === null) throw new Error(`ARCA respondió ${operation} sin ${operation}Result`);
  return result;
}

/** FECompUltimoAutorizado: the last number ARCA authorised for this point of sale and voucher type (0: none yet). */
export async function lastAuthorised(config: ArcaConfig, ticket: AccessTicket, pointOfSale: number, voucherType: number): Promise<number> {
  const result = await call(config, "FECompUltimoAutorizado", `${auth(ticket, config)}<ar:PtoVta>${pointOfSale}</ar:PtoVta><ar:CbteTipo>${voucherType}</ar:CbteTipo>`);
  const errors = messages(result, "Errors", "Err");
  if (errors.length) throw new WsfeTransientError(errors);
  const number = Number(xmlText(result, "CbteNro"));
  if (!Number.isInteger(number) || number < 0) throw new Error("ARCA respondió FECompUltimoAutorizado sin un número");
  return number;
}

/** FECompConsultar: the voucher ARCA authorised with this number, or null when it has none (error 602). */
export async function consultVoucher(config: ArcaConfig, ticket: AccessTicket, pointOfSale: number, voucherType: number, number: number): Promise<AuthorisedVoucher | null> {
  const result = await call(
    config,
    "FECompConsultar",
    `${auth(ticket, config)}<ar:FeCompConsReq><ar:CbteTipo>${voucherType}</ar:CbteTipo><ar:CbteNro>${number}</ar:CbteNro><ar:PtoVta>${pointOfSale}</ar:PtoVta></ar:FeCompConsReq>`,
  );
  const errors = messages(result, "Errors", "Err");
  const found = xmlElement(result, "ResultGet");
  if (!found) {
    // 602: «No existen datos en nuestros registros para los parametros ingresados.»
    if (errors.some((e) => e.code === 602) || !errors.length) return null;
    throw new WsfeTransientError(errors);
  }
  const cae = xmlText(found, "CodAutorizacion");
  if (xmlText(found, "Resultado") !== "A" || !cae) return null;
  return {
    number: Number(xmlText(found, "CbteDesde")),
    cae,
    caeDueDate: yyyymmddToIso(xmlText(found, "FchVto")) ?? "",
    total: Math.round(Number(xmlText(found, "ImpTotal")) * 100),
    docType: Number(xmlText(found, "DocTipo")),
    docNumber: xmlText(found, "DocNro") ?? "",
    date: xmlText(found, "CbteFch") ?? "",
    observations: messages(found, "Observaciones", "Obs"),
  };
}

/** FECAESolicitar of one voucher: ARCA's verdict, its codes and observations as it wrote them. */
export async function requestCae(config: ArcaConfig, ticket: AccessTicket, voucher: VoucherRequest): Promise<CaeResult> {
  const vatBlock =
    voucher.vat > 0
      ? `<ar:Iva><ar:AlicIva><ar:Id>5</ar:Id><ar:BaseImp>${arcaAmount(voucher.net)}</ar:BaseImp><ar:Importe>${arcaAmount(voucher.vat)}</ar:Importe></ar:AlicIva></ar:Iva>`
      : "";
  const associated = voucher.associated
    ? `<ar:CbtesAsoc><ar:CbteAsoc><ar:Tipo>${voucher.associated.voucherType}</ar:Tipo><ar:PtoVta>${voucher.associated.pointOfSale}</ar:PtoVta><ar:Nro>${voucher.associated.number}</ar:Nro><ar:Cuit>${voucher.associated.cuit}</ar:Cuit><ar:CbteFch>${voucher.associated.date}</ar:CbteFch></ar:CbteAsoc></ar:CbtesAsoc>`
    : "";
  const detail = [
    `<ar:Concepto>${voucher.concept}</ar:Concepto>`,
    `<ar:DocTipo>${voucher.docType}</ar:DocTipo>`,
    `<ar:DocNro>${voucher.docNumber}</ar:DocNro>`,
    `<ar:CbteDesde>${voucher.number}</ar:CbteDesde>`,
    `<ar:CbteHasta>${voucher.number}</ar:CbteHasta>`,
    `<ar:CbteFch>${voucher.date}</ar:CbteFch>`,
    `<ar:ImpTotal>${arcaAmount(voucher.total)}</ar:ImpTotal>`,
    `<ar:ImpTotConc>0.00</ar:ImpTotConc>`,
    `<ar:ImpNeto>${arcaAmount(voucher.net)}</ar:ImpNeto>`,
    `<ar:ImpOpEx>0.00</ar:ImpOpEx>`,
    `<ar:ImpTrib>0.00</ar:ImpTrib>`,
    `<ar:ImpIVA>${arcaAmount(voucher.vat)}</ar:ImpIVA>`,
    // Services: the period served and the payment's due date (the day of the voucher: it was paid already).
    `<ar:FchServDesde>${voucher.date}</ar:FchServDesde>`,
    `<ar:FchServHasta>${voucher.date}</ar:FchServHasta>`,
    `<ar:FchVtoPago>${voucher.date}</ar:FchVtoPago>`,
    `<ar:MonId>PES</ar:MonId>`,
    `<ar:MonCotiz>1</ar:MonCotiz>`,
    `<ar:CondicionIVAReceptorId>${voucher.receiverIvaCondition}</ar:CondicionIVAReceptorId>`,
    associated,
    vatBlock,
  ].join("");
  const result = await call(
    config,
    "FECAESolicitar",
    `${auth(ticket, config)}<ar:FeCAEReq><ar:FeCabReq><ar:CantReg>1</ar:CantReg><ar:PtoVta>${voucher.pointOfSale}</ar:PtoVta><ar:CbteTipo>${voucher.voucherType}</ar:CbteTipo></ar:FeCabReq><ar:FeDetReq><ar:FECAEDetRequest>${detail}</ar:FECAEDetRequest></ar:FeDetReq></ar:FeCAEReq>`,
  );
  const errors = messages(result, "Errors", "Err");
  const det = xmlElement(result, "FECAEDetResponse");
  if (!det) {
    // No detail: the request itself failed (ARCA's side, our ticket) or was refused as a whole.
    if (!errors.length || errors.some((e) => TRANSIENT_ERRORS.has(e.code))) throw new WsfeTransientError(errors);
    return { result: "R", cae: null, caeDueDate: null, errors, observations: [] };
  }
  if (errors.some((e) => TRANSIENT_ERRORS.has(e.code))) throw new WsfeTransientError(errors);
  const verdict = xmlText(det, "Resultado") === "A" ? "A" : "R";
  const cae = xmlText(det, "CAE");
  const observations = messages(det, "Observaciones", "Obs");
  // 10016: the number is not the next one ARCA expects (someone numbered in between): no verdict, number again.
  if (verdict === "R" && [...errors, ...observations].some((e) => e.code === 10016)) throw new WsfeTransientError([...errors, ...observations]);
  return {
    result: verdict,
    cae: verdict === "A" && cae ? cae : null,
    caeDueDate: verdict === "A" ? yyyymmddToIso(xmlText(det, "CAEFchVto")) : null,
    errors,
    observations,
  };
}
