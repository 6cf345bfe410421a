import { useCallback, useEffect, useRef, useState } from "react";
import { formatDateTime } from "#common/dates";
import { verdictDetail, verdictTitle, type DoorVerdict } from "#common/door";
import { DoorBook, fetchManifest, isNetworkFailure, readQueue, redeemOnline, syncQueue, writeQueue, type DeviceMode, type QueuedScan } from "./door-device";
import type { VerdictView } from "./Verdict";
import { keepPageOffline } from "#app/components/tickets/useTicketsOffline";

/** How often the device syncs its queue and refreshes the manifest while online, and when it takes a whole one again. */
const REFRESH_MS = 5000;
const FULL_MANIFEST_EVERY_MS = 5 * 60 * 1000;

export interface DoorDeviceOptions {
  slug: string;
  eventId: string;
  deviceId: string;
  doorName: string;
  publicKey: JsonWebKey;
  /** "bar": menu items, with their own manifest and queue (decision 106). */
  mode?: DeviceMode;
}

export interface DoorConflict {
  holderName: string | null;
  detail: string;
}

function view(verdict: DoorVerdict, offline: boolean): VerdictView {
  return {
    outcome: verdict.outcome,
    title: verdictTitle(verdict),
    detail: verdictDetail(verdict, new Date()),
    holderName: verdict.holderName ?? null,
    holderDocument: verdict.holderDocument ?? null,
    ticketTypeName: verdict.ticketTypeName ?? null,
    seatLabel: verdict.seatLabel ?? null,
    productKind: verdict.productKind ?? null,
    when: verdict.eventDateStartsAt ? formatDateTime(verdict.eventDateStartsAt) : null,
    offline,
  };
}

/**
 * The door screen once hydrated: scans go to redeemProduct; when the network
 * does not answer they are judged against the signed manifest and queued on
 * the device, and the queue is synced (idempotently) when it comes back.
 */
export function useDoorDevice({ slug, eventId, deviceId, doorName, publicKey, mode = "door" }: DoorDeviceOptions) {
  const book = useRef<DoorBook | null>(null);
  const [verdict, setVerdict] = useState<VerdictView | null>(null);
  const [online, setOnline] = useState(true);
  const [pending, setPending] = useState(0);
  const [ready, setReady] = useState(false);
  const [admittedHere, setAdmittedHere] = useState(0);
  const [conflicts, setConflicts] = useState<DoorConflict[]>([]);
  const busy = useRef(false);

  useEffect(() => {
    const device = new DoorBook(eventId, publicKey, mode);
    book.current = device;
    setPending(readQueue(eventId, mode).length);
    let stopped = false;
    let lastFull = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;

    async function tick() {
      try {
        const queue = readQueue(eventId, mode);
        if (queue.length) {
          const answers = await syncQueue(slug, deviceId, queue, mode);
          const done = new Set(answers.map((a) => a.scanId));
          writeQueue(eventId, readQueue(eventId, mode).filter((q) => !done.has(q.scanId)), mode);
        }
        const full = !device.manifest || Date.now() - lastFull > FULL_MANIFEST_EVERY_MS;
        const signed = await fetchManifest(slug, full ? null : device.manifest!.cursor, mode);
        if ((await device.add(signed)) && full) lastFull = Date.now();
        // Every door sees the conflicts, whichever phone synced second.
        setConflicts(
          (device.manifest?.conflicts ?? []).map((c) => ({
            holderName: c.holderName,
            detail: verdictDetail({ outcome: "conflict", redeemedAt: c.at, redeemedDoor: c.door }, new Date()),
          })),
        );
        setOnline(true);
      } catch {
        setOnline(false);
      } finally {
        setPending(readQueue(eventId, mode).length);
        setReady(device.manifest !== null);
        if (!stopped) timer = setTimeout(tick, REFRESH_MS);
      }
    }
    void device.load().then(() => {
      setReady(device.manifest !== null);
      void tick();
    });
    const wake = () => {
      if (timer) clearTimeout(timer);
      void tick();
    };
    window.addEventListener("online", wake);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      window.removeEventListener("online", wake);
    };
  }, [slug, eventId, deviceId, publicKey, mode]);

  const scan = useCallback(
    async (raw: string) => {
      const code = raw.trim().slice(0, 300);
      if (!code || busy.current) return;
      busy.current = true;
      try {
        const scanId = crypto.randomUUID();
        const scannedAt = new Date().toISOString();
        try {
          const answer = await redeemOnline(slug, { code, scanId, door: doorName, deviceId }, mode);
          if (answer.outcome === "admitted") setAdmittedHere((n) => n + 1);
          setOnline(true);
          setVerdict(view(answer, false));
          return;
        } catch (error) {
          if (!isNetworkFailure(error)) {
            setVerdict({ outcome: "unknown", title: "No se pudo validar", detail: (error as Error).message, holderName: null, ticketTypeName: null });
            return;
          }
        }
        setOnline(false);
        const queue = readQueue(eventId, mode);
        const { verdict: offline, hash } = book.current ? await book.current.judge(code, queue) : { verdict: { outcome: "unknown" as const }, hash: null };
        const accepted = offline.outcome === "admitted";
        const queued: QueuedScan = { scanId, code, scannedAt, acceptedOffline: accepted, door: doorName, hash };
        writeQueue(eventId, [...queue, queued], mode);
        setPending(queue.length + 1);
        if (accepted) setAdmittedHere((n) => n + 1);
        // The manifest is the mode's own (only menu items at the bar), so the mode says what the code is: "Ya se canjeó", not "Ya ingresó".
        setVerdict(view({ ...offline, productKind: offline.outcome === "unknown" ? null : mode === "bar" ? "menu" : "ticket" }, true));
      } finally {
        busy.current = false;
      }
    },
    [slug, eventId, deviceId, doorName, mode],
  );

  return { scan, verdict, clearVerdict: () => setVerdict(null), online, pending, ready, admittedHere, conflicts };
}

type Detector = { detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]> };

/**
 * The camera: the browser's BarcodeDetector where it has one, else jsQR,
 * loaded only here (the door page) and only when the camera starts.
 */
export function CameraScanner({ onCode, paused }: { onCode: (text: string) => void; paused: boolean }) {
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<"off" | "starting" | "on" | "denied">("off");
  // The camera runs while `active`; `state` only tells the screen how it is going.
  const [active, setActive] = useState(false);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const onCodeRef = useRef(onCode);
  onCodeRef.current = onCode;

  useEffect(() => {
    if (!active) return;
    let stream: MediaStream | null = null;
    let stopped = false;
    let last = { text: "", at: 0 };
    (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
        if (stopped || !video.current) return;
        video.current.srcObject = stream;
        await video.current.play();
        setState("on");
        const Native = (window as unknown as { BarcodeDetector?: new (o: { formats: string[] }) => Detector }).BarcodeDetector;
        const detector = Native ? new Native({ formats: ["qr_code"] }) : null;
        const jsQR = detector ? null : (await import("jsqr")).default;
        // The QR reader came in a chunk of its own: hand it to the page's offline copy, so the camera also starts after a reload without signal.
        if (jsQR) keepPageOffline();
        const canvas = document.createElement("canvas");
        const context = canvas.getContext("2d", { willReadFrequently: true });
        while (!stopped) {
          await new Promise((r) => setTimeout(r, 120));
          const el = video.current;
          if (pausedRef.current) {
            // "Escanear otra": the QR in front of the camera counts again, even if it is the same one.
            last = { text: "", at: 0 };
            continue;
          }
          if (!el || el.readyState < 2) continue;
          let text: string | null = null;
          if (detector) text = (await detector.detect(el).catch(() => []))[0]?.rawValue ?? null;
          else if (jsQR && context) {
            const scale = Math.min(1, 640 / (el.videoWidth || 640));
            canvas.width = Math.round((el.videoWidth || 640) * scale);
            canvas.height = Math.round((el.videoHeight || 480) * scale);
            context.drawImage(el, 0, 0, canvas.width, canvas.height);
            const image = context.getImageData(0, 0, canvas.width, canvas.height);
            text = jsQR(image.data, image.width, image.height, { inversionAttempts: "dontInvert" })?.data ?? null;
          }
          // The same QR still in front of the camera is one scan, not one per frame.
          if (text && (text !== last.text || Date.now() - last.at > 4000)) {
            last = { text, at: Date.now() };
            onCodeRef.current(text);
          } else if (text) last.at = Date.now();
        }
      } catch {
        if (!stopped) setState("denied");
      }
    })();
    return () => {
      stopped = true;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [active]);

  if (state === "denied") {
    return <p className="rounded-lg border border-[var(--border)] p-3 text-sm">No pudimos usar la cámara. Revisá el permiso del navegador o escribí el código.</p>;
  }
  return (
    <div className="flex flex-col gap-2">
      {state === "off" ? (
        <button
          type="button"
          onClick={() => {
            setState("starting");
            setActive(true);
          }} className="rounded-xl bg-primary-500 px-4 py-4 text-lg font-black text-black">
          Escanear con la cámara
        </button>
      ) : null}
      <video ref={video} muted playsInline aria-label="Cámara" className={state === "off" ? "hidden" : "aspect-square w-full rounded-xl bg-black object-cover"} />
    </div>
  );
}
