import { primary, surfaces } from "#common/brand";
import { formatEventDay, formatTime } from "#common/dates";
import { appUrl } from "#server/env";
import type { AppleWalletConfig } from "./config";
import { appleBarcodeFor } from "./barcode";
import { PASS_IMAGES } from "./images";
import type { WalletPassData } from "./pass-data";
import { passAuthToken } from "./serial";

/** Where Apple Wallet asks for updates: it appends `/v1/...` (app/routes/api.wallet.apple.$.ts). */
export function appleWebServiceUrl(): string {
  return `${appUrl()}/api/wallet/apple`;
}

/** "rgb(r, g, b)" from "#rrggbb", as pass.json wants its colors. */
function rgb(hex: string): string {
  const n = Number.parseInt(hex.replace("#", ""), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

/**
 * The pass's colours: the organization's when it chose them (decision 221; their contrast was checked on
 * saving, so labels take the text colour), else Tribuna's dark theme with its teal labels.
 */
export function appleColors(data: Pick<WalletPassData, "event">): { backgroundColor: string; foregroundColor: string; labelColor: string } {
  const colors = data.event.colors;
  if (colors) return { backgroundColor: rgb(colors.background), foregroundColor: rgb(colors.text), labelColor: rgb(colors.text) };
  return { backgroundColor: rgb(surfaces.dark.bg), foregroundColor: rgb(surfaces.dark.text), labelColor: rgb(primary[400]) };
}

/**
 * A signed `.pkpass` (eventTicket) for one ticket: the event, its date and
 * place in Buenos Aires time, the ticket type, the seat when it has one
 * (docs/seating.md), the holder when the ticket is named (decision 202), the QR (walletBarcodeFor) and the relevant date. A
 * voided pass keeps the event and loses the QR.
 */
export async function buildApplePass(config: AppleWalletConfig, data: WalletPassData, now: Date = new Date()): Promise<Buffer> {
  // Loaded on first use, so the server's idle memory does not carry it (decision 242).
  const { PKPass } = await import("passkit-generator");
  const buffers = Object.fromEntries(Object.entries(PASS_IMAGES).map(([name, b64]) => [name, Buffer.from(b64, "base64")]));
  const pass = new PKPass(
    buffers,
    { wwdr: config.wwdr, signerCert: config.signerCert, signerKey: config.signerKey, signerKeyPassphrase: config.signerKeyPassphrase },
    {
      formatVersion: 1,
      passTypeIdentifier: config.passTypeId,
      teamIdentifier: config.teamId,
      serialNumber: data.serial,
      organizationName: "Tribuna",
      description: `Entrada para ${data.event.name}`,
      logoText: "Tribuna",
      ...appleColors(data),
      webServiceURL: appleWebServiceUrl(),
      authenticationToken: passAuthToken(data.serial),
      voided: data.voided,
    },
  );
  pass.type = "eventTicket";
  pass.primaryFields.push({ key: "event", label: "Evento", value: data.event.name });
  pass.secondaryFields.push(
    { key: "date", label: "Fecha", value: formatEventDay(data.event.startsAt) },
    { key: "time", label: "Hora", value: `${formatTime(data.event.startsAt)} h`, textAlignment: "PKTextAlignmentRight" },
  );
  pass.auxiliaryFields.push({ key: "venue", label: "Lugar", value: data.event.venueName }, { key: "type", label: "Entrada", value: data.ticket.ticketTypeName, textAlignment: "PKTextAlignmentRight" });
  const seat = data.ticket.seat;
  if (seat) {
    // Reserved seating: where the holder sits, in words, and as Apple's seat semantics (section, row, number).
    pass.auxiliaryFields.push({ key: "seat", label: "Ubicación", value: seat.label, semantics: { seats: [{ seatSection: seat.section, seatRow: seat.row, seatNumber: seat.number }] } });
  }
  if (data.ticket.holderDocument) {
    pass.auxiliaryFields.push({ key: "holder", label: "Titular", value: `${data.ticket.holderName} · ${data.ticket.holderDocument}` });
  }
  pass.backFields.push(
    { key: "address", label: "Dirección", value: `${data.event.venueName} — ${data.event.venueAddress}, ${data.event.city}` },
    { key: "order", label: "Compra", value: data.orderCode },
    { key: "status", label: "Estado", value: data.voided ? "Anulada: esta entrada ya no sirve para entrar." : "Válida. Mostrá el QR en la puerta." },
  );
  const barcode = data.voided ? null : appleBarcodeFor(data, now);
  if (barcode) {
    pass.setBarcodes({ format: "PKBarcodeFormatQR", message: barcode.message, messageEncoding: "iso-8859-1", altText: barcode.altText });
  } else {
    pass.setBarcodes(null);
  }
  if (!data.voided && data.live && !barcode) {
    // The live QR's static code is revealed later: the pass says when, and the reveal job pushes the update then.
    pass.backFields.push({
      key: "reveal",
      label: "QR",
      value: `Este evento usa QR dinámico. El QR aparece acá el ${formatEventDay(data.live.staticFrom)} a las ${formatTime(data.live.staticFrom)} h; antes, abrí la entrada en Tribuna para ver el código que cambia.`,
    });
  }
  pass.setRelevantDate(data.event.doorsAt ?? data.event.startsAt);
  // Near the venue, the pass shows on the lock screen (with the relevant date, around the show's day).
  if (data.event.location && !data.voided) {
    pass.setLocations({ latitude: data.event.location.latitude, longitude: data.event.location.longitude, relevantText: `Llegaste a ${data.event.venueName}: tu entrada está acá.` });
  }
  pass.setExpirationDate(data.event.endsAt);
  return pass.getAsBuffer();
}
