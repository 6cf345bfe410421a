/**
 * The QR every printed electronic voucher carries (RG 4892): ARCA's address with, in `p`, the voucher's data
 * as JSON in base64. Pure; the caller draws it (docs/invoicing.md).
 */
export const ARCA_QR_URL = "https://www.afip.gob.ar/fe/qr/?p=";

export interface QrVoucher {
  /** yyyy-mm-dd or yyyymmdd (CbteFch). */
  date: string;
  issuerCuit: string;
  pointOfSale: number;
  voucherType: number;
  number: number;
  /** Integer centavos. */
  total: number;
  receiverDocType: number;
  receiverDocNumber: string;
  cae: string;
}

/** The JSON of RG 4892, version 1: pesos (PES, rate 1), authorised with a CAE ("E"). */
export function qrData(v: QrVoucher) {
  const fecha = /^\d{8}$/.test(v.date) ? `${v.date.slice(0, 4)}-${v.date.slice(4, 6)}-${v.date.slice(6, 8)}` : v.date;
  return {
    ver: 1,
    fecha,
    cuit: Number(v.issuerCuit),
    ptoVta: v.pointOfSale,
    tipoCmp: v.voucherType,
    nroCmp: v.number,
    importe: v.total / 100,
    moneda: "PES",
    ctz: 1,
    tipoDocRec: v.receiverDocType,
    nroDocRec: Number(v.receiverDocNumber),
    tipoCodAut: "E",
    codAut: Number(v.cae),
  };
}

/** The address the QR encodes. */
export function qrUrl(v: QrVoucher): string {
  return ARCA_QR_URL + Buffer.from(JSON.stringify(qrData(v)), "utf8").toString("base64");
}
