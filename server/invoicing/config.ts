import fs from "node:fs";
import { env, type Env } from "#server/env";

/** The platform's IVA condition (PLATFORM_IVA_CONDITION): which letters it issues (docs/invoicing.md). */
export type PlatformIvaCondition = Env["PLATFORM_IVA_CONDITION"];

export const ARCA_URLS = {
  homologacion: { wsaa: "https://wsaahomo.afip.gov.ar/ws/services/LoginCms", wsfe: "https://wswhomo.afip.gov.ar/wsfev1/service.asmx" },
  produccion: { wsaa: "https://wsaa.afip.gov.ar/ws/services/LoginCms", wsfe: "https://servicios1.afip.gov.ar/wsfev1/service.asmx" },
} as const;

export interface ArcaConfig {
  environment: "homologacion" | "produccion";
  /** 11 digits, no dashes. */
  cuit: string;
  pointOfSale: number;
  /** PEM text. */
  cert: string;
  key: string;
  timeoutMs: number;
  ivaCondition: PlatformIvaCondition;
  urls: { wsaa: string; wsfe: string };
}

/** A PEM value: the text itself, or the path of a file holding it. */
function pem(value: string, variable: string): string {
  if (value.includes("-----BEGIN")) return value.replace(/\\n/g, "\n");
  try {
    return fs.readFileSync(value, "utf8");
  } catch {
    throw new Error(`${variable} no es un PEM ni la ruta de un archivo que se pueda leer`);
  }
}

/** ARCA's configuration from the environment, or null (invoicing off) unless CUIT, point of sale, cert and key are all set. */
export function arcaConfigFrom(e: Env): ArcaConfig | null {
  if (!e.ARCA_CUIT || !e.ARCA_POINT_OF_SALE || !e.ARCA_CERT || !e.ARCA_KEY) return null;
  return {
    environment: e.ARCA_ENVIRONMENT ?? "homologacion",
    cuit: e.ARCA_CUIT.replace(/-/g, ""),
    pointOfSale: e.ARCA_POINT_OF_SALE,
    cert: pem(e.ARCA_CERT, "ARCA_CERT"),
    key: pem(e.ARCA_KEY, "ARCA_KEY"),
    timeoutMs: e.ARCA_TIMEOUT_MS ?? 30_000,
    ivaCondition: e.PLATFORM_IVA_CONDITION,
    urls: ARCA_URLS[e.ARCA_ENVIRONMENT ?? "homologacion"],
  };
}

let cached: { config: ArcaConfig | null } | undefined;

/** The process's ARCA configuration (read once), or null: invoicing is off and nothing is queued. */
export function arcaConfig(): ArcaConfig | null {
  cached ??= { config: arcaConfigFrom(env()) };
  return cached.config;
}

/** What the printed voucher says of its issuer (docs/invoicing.md); the CUIT comes from the voucher itself. */
export interface IssuerDetails {
  legalName: string;
  address: string;
  ivaCondition: PlatformIvaCondition;
  /** Ingresos brutos: the CUIT when not set (Convenio Multilateral numbers it so). */
  grossIncome: string | null;
  /** dd/mm/aaaa, or null: printed as not given. */
  activityStart: string | null;
}

export function issuerDetailsFrom(e: Env): IssuerDetails {
  return {
    legalName: e.PLATFORM_LEGAL_NAME ?? "Tribuna",
    address: e.PLATFORM_ADDRESS ?? "",
    ivaCondition: e.PLATFORM_IVA_CONDITION,
    grossIncome: e.PLATFORM_GROSS_INCOME ?? null,
    activityStart: e.PLATFORM_ACTIVITY_START ?? null,
  };
}
