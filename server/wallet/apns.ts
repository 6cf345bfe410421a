import http2 from "node:http2";
import type { AppleWalletConfig } from "./config";
import type { ApnsSender } from "./changes";

export const APNS_ORIGIN = "https://api.push.apple.com";

/**
 * APNs over HTTP/2 with the Pass Type ID certificate (the one that signs the
 * passes): an empty payload to `/3/device/{pushToken}` with the pass type as
 * topic wakes the device, which then asks the web service what changed.
 * `gone` for a token APNs no longer knows (410): its registrations can go.
 */
export function apnsSender(config: AppleWalletConfig, options: { origin?: string; ca?: string } = {}): ApnsSender & { close(): void } {
  let session: http2.ClientHttp2Session | null = null;
  const connect = () => {
    if (session && !session.closed && !session.destroyed) return session;
    session = http2.connect(options.origin ?? APNS_ORIGIN, { cert: config.signerCert, key: config.signerKey, passphrase: config.signerKeyPassphrase, ca: options.ca });
    session.on("error", () => session?.destroy());
    return session;
  };
  return {
    push(pushToken, topic) {
      return new Promise((resolve, reject) => {
        const request = connect().request({ ":method": "POST", ":path": `/3/device/${encodeURIComponent(pushToken)}`, "apns-topic": topic, "content-type": "application/json" });
        let status = 0;
        let body = "";
        request.setEncoding("utf8");
        request.on("response", (headers) => (status = Number(headers[":status"])));
        request.on("data", (chunk: string) => (body += chunk));
        request.on("error", reject);
        request.on("end", () => {
          if (status === 200) resolve("sent");
          else if (status === 410) resolve("gone");
          else reject(new Error(`APNs respondió ${status}: ${body.slice(0, 200)}`));
        });
        request.end("{}");
      });
    },
    close() {
      session?.close();
    },
  };
}
