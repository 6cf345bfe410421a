import crypto from "node:crypto";
import { useEffect, type FormEvent } from "react";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formatDateTime, formatTime } from "#common/dates";
import { placeName, verdictDetail, verdictTitle, type DoorOutcome } from "#common/door";
import { doorEvent, openDoor, unlockDoor, type DoorAccess } from "#server/door/access";
import { doorDateOf, doorEntryCount, redeemAtDoor } from "#server/door/redeem";
import { searchAtDoor, type DoorMode } from "#server/door/search";
import { isDomainError } from "#server/errors";
import { getRequestContext } from "#app/lib/session.server";
import { errorMessages, FORM_STATUS, isFormError, pageErrorResponse } from "#app/lib/domain-errors.server";
import { clearDoorSessionCookie, doorNameCookie, doorSessionCookie, newDeviceCookie, readDoorCookies } from "#app/lib/door.server";
import { readForm } from "#app/lib/backoffice.server";
import { fieldInputClasses } from "#app/components/ui/Field";
import { Button } from "#app/components/ui/Button";
import type { ShellHandle } from "#app/root";
import { Verdict, useVerdictFeedback } from "#app/components/door/Verdict";
import { CameraScanner, useDoorDevice } from "#app/components/door/DoorDevice";
import { keepPageOffline } from "#app/components/tickets/useTicketsOffline";
import { manifestPublicKey } from "#server/door/manifest";

/** Full screen: the door needs every pixel and no menu to tap by mistake. */
export const handle: ShellHandle = { shell: false };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data && "mode" in data && data.mode === "bar" ? "Barra" : "Puerta"}${data && "event" in data && data.event ? ` · ${data.event.name}` : ""} · Tribuna` },
  { name: "robots", content: "noindex" },
];

const PRIVATE = { "Cache-Control": "private, no-store" };

/** `?modo=barra`: the same screen serves the event's menu items at the bar (decision 106). */
function modeOf(url: URL): DoorMode {
  return url.searchParams.get("modo") === "barra" ? "bar" : "door";
}

async function doorFor(request: Request, slug: string) {
  const { ctx, headers } = await getRequestContext(request);
  const cookies = readDoorCookies(request, slug);
  try {
    const access = await openDoor(ctx, { slug, session: cookies.session });
    return { ctx, headers, cookies, access };
  } catch (error) {
    if (isDomainError(error) && error.code === "UNAUTHENTICATED") return { ctx, headers, cookies, access: null };
    throw pageErrorResponse(error, { headers });
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const slug = params.slug ?? "";
  const { ctx, headers, cookies, access } = await doorFor(request, slug);
  for (const [k, v] of Object.entries(PRIVATE)) headers.set(k, v);
  if (!access) {
    const event = await doorEvent(ctx, slug).catch((error) => {
      throw pageErrorResponse(error, { headers });
    });
    return data({ locked: true as const, event: { name: event.name, slug: event.slug }, doorName: cookies.doorName ?? "" }, { headers });
  }
  const url = new URL(request.url);
  const query = url.searchParams.get("buscar") ?? "";
  const mode = modeOf(url);
  let deviceId = cookies.deviceId;
  if (!deviceId) {
    const device = newDeviceCookie();
    deviceId = device.deviceId;
    headers.append("Set-Cookie", device.cookie);
  }
  const doorDate = await doorDateOf(ctx.db, access.event.id, ctx.now);
  const [entries, hits] = await Promise.all([doorEntryCount(ctx.db, access.event.id, doorDate?.id, mode), searchAtDoor(ctx, access, query, mode)]);
  return data(
    {
      locked: false as const,
      mode,
      event: { id: access.event.id, name: access.event.name, slug: access.event.slug },
      doorName: cookies.doorName ?? "",
      deviceId,
      manifestKey: manifestPublicKey(),
      byPin: access.pinSessionId !== null,
      entries,
      query,
      hits: hits.map((h) => ({ ...h, redeemedAt: h.redeemedAt ? formatTime(h.redeemedAt) : null })),
      // A fresh id per screen: sending the same form twice (a reload, a double tap) redeems once.
      scanId: crypto.randomUUID(),
    },
    { headers },
  );
}

type ActionReply =
  | { intent: "unlock"; error: string }
  | { intent: "redeem"; outcome: DoorOutcome; title: string; detail: string; holderName: string | null; holderDocument: string | null; ticketTypeName: string | null; seatLabel: string | null; productKind: "ticket" | "menu" | null; when: string | null }
  | { intent: "redeem"; error: string };

export async function action({ request, params }: ActionFunctionArgs) {
  const slug = params.slug ?? "";
  const { values } = await readForm(request);
  const { ctx, headers, cookies, access } = await doorFor(request, slug);
  const url = new URL(request.url);
  const mode = values.mode === "bar" ? "bar" : modeOf(url);
  const here = `${url.pathname}${mode === "bar" ? "?modo=barra" : ""}`;
  const device = cookies.deviceId ? null : newDeviceCookie();
  if (device) headers.append("Set-Cookie", device.cookie);

  switch (values.intent) {
    case "unlock": {
      try {
        const unlocked = await unlockDoor(ctx, { slug, pin: values.pin ?? "", deviceId: cookies.deviceId ?? device?.deviceId });
        headers.append("Set-Cookie", doorSessionCookie(slug, unlocked.token, unlocked.expiresAt, ctx.now));
        if (values.doorName) headers.append("Set-Cookie", doorNameCookie(values.doorName));
        return redirect(here, { headers });
      } catch (error) {
        if (!isFormError(error)) throw pageErrorResponse(error, { headers });
        return data<ActionReply>({ intent: "unlock", error: errorMessages(error)[0] }, { status: FORM_STATUS[error.code], headers });
      }
    }
    case "door":
      headers.append("Set-Cookie", doorNameCookie(values.doorName ?? ""));
      return redirect(here, { headers });
    case "lock":
      headers.append("Set-Cookie", clearDoorSessionCookie(slug));
      return redirect(here, { headers });
    case "redeem": {
      if (!access) return redirect(here, { headers });
      return redeem(ctx, access, values, { deviceId: cookies.deviceId ?? device!.deviceId, doorName: cookies.doorName, headers, mode });
    }
    default:
      return data({ intent: "redeem" as const, error: "No entendimos qué querías hacer." }, { status: 400, headers });
  }
}

async function redeem(
  ctx: Awaited<ReturnType<typeof getRequestContext>>["ctx"],
  access: DoorAccess,
  values: Record<string, string>,
  device: { deviceId: string; doorName: string | null; headers: Headers; mode: DoorMode },
) {
  const code = (values.code ?? "").trim();
  if (!code) return data<ActionReply>({ intent: "redeem", error: "Escribí o escaneá el código de la entrada." }, { status: 400, headers: device.headers });
  try {
    const answer = await redeemAtDoor(ctx, access, { code, scanId: values.scanId || null, door: device.doorName, deviceId: device.deviceId, mode: device.mode });
    return data<ActionReply>(
      {
        intent: "redeem",
        outcome: answer.outcome,
        title: verdictTitle(answer),
        detail: verdictDetail(answer, ctx.now),
        holderName: answer.holderName ?? null,
        holderDocument: answer.holderDocument ?? null,
        ticketTypeName: answer.ticketTypeName ?? null,
        seatLabel: answer.seatLabel ?? null,
        productKind: answer.productKind ?? null,
        when: answer.eventDateStartsAt ? formatDateTime(answer.eventDateStartsAt) : null,
      },
      { headers: device.headers },
    );
  } catch (error) {
    if (!isFormError(error)) throw pageErrorResponse(error, { headers: device.headers });
    return data<ActionReply>({ intent: "redeem", error: errorMessages(error)[0] }, { status: FORM_STATUS[error.code], headers: device.headers });
  }
}

export default function DoorScreen() {
  const loaderData = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as ActionReply | undefined;
  const verdict = reply && "outcome" in reply ? reply : null;
  useVerdictFeedback(verdict);
  if (loaderData.locked) return <LockedDoor eventName={loaderData.event.name} doorName={loaderData.doorName} error={reply && "error" in reply ? reply.error : null} />;
  if (verdict) return <Verdict verdict={verdict} nextTo={loaderData.mode === "bar" ? "?modo=barra" : "."} />;
  return <OpenDoor {...loaderData} error={reply && "error" in reply ? reply.error : null} />;
}

function LockedDoor({ eventName, doorName, error }: { eventName: string; doorName: string; error: string | null }) {
  const pending = useNavigation().state !== "idle";
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4 py-8">
      <header>
        <p className="text-sm font-bold uppercase tracking-wide text-[var(--muted)]">Acreditación</p>
        <h1 className="text-2xl font-bold">{eventName}</h1>
        <p className="mt-2 text-[var(--muted)]">Ingresá el PIN de la puerta que te pasó quien organiza. Vale solo para este evento y hasta que termine.</p>
      </header>
      <Form noValidate method="post" className="flex flex-col gap-4">
        <input type="hidden" name="intent" value="unlock" />
        <div className="flex flex-col gap-1">
          <label htmlFor="pin" className="font-bold">PIN de la puerta</label>
          <input
            id="pin"
            name="pin"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]*"
            required
            autoFocus
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "pin-error" : undefined}
            className={`${fieldInputClasses} text-center font-mono text-3xl tracking-[0.3em]`}
          />
          <p id="pin-error" className="min-h-5 text-sm text-red-600 dark:text-red-400" aria-live="polite">{error}</p>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="doorName" className="font-bold">¿En qué puerta estás?</label>
          <input id="doorName" name="doorName" defaultValue={doorName} placeholder="Puerta 1" maxLength={40} className={fieldInputClasses} />
        </div>
        <Button type="submit" pending={pending} pendingLabel="Abriendo…" className="py-4 text-lg">
          Abrir la puerta
        </Button>
      </Form>
      <p className="text-sm text-[var(--muted)]">
        ¿Sos del equipo de la organización? <Link to="/cuenta/iniciar-sesion/email" className="font-bold text-primary-600 underline dark:text-primary-400">Iniciá sesión</Link> y volvé a esta página: no necesitás PIN.
      </p>
    </main>
  );
}

function OpenDoor(props: Extract<ReturnType<typeof useLoaderData<typeof loader>>, { locked: false }> & { error: string | null }) {
  const { event, doorName, entries, query, hits, scanId, byPin, error, deviceId, manifestKey, mode } = props;
  const bar = mode === "bar";
  // At the bar the screen (and what it records) says the bar, not the door this phone was named after.
  const place = placeName(doorName, mode);
  const pending = useNavigation().state !== "idle";
  const device = useDoorDevice({ slug: event.slug, eventId: event.id, deviceId, doorName: place, publicKey: manifestKey as JsonWebKey, mode });
  useVerdictFeedback(device.verdict);
  useEffect(() => keepPageOffline(), []);
  // With JavaScript the code goes to the device (online redeem, or offline judge and queue); without it, the form posts.
  const onSubmitCode = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const input = e.currentTarget.elements.namedItem("code") as HTMLInputElement;
    void device.scan(input.value);
    input.value = "";
  };
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-5 px-4 py-5">
      <header className="flex items-start justify-between gap-3">
        <div>
          <p className="text-sm font-bold uppercase tracking-wide text-[var(--muted)]">{place}</p>
          <h1 className="text-xl font-bold">{event.name}</h1>
        </div>
        <p className="text-right">
          <span className="block text-3xl font-black tabular-nums" aria-live="polite" data-testid="door-entries">{(entries + device.admittedHere).toLocaleString("es-AR")}</span>
          <span className="text-sm text-[var(--muted)]">{bar ? "canjes" : "ingresos"}</span>
        </p>
      </header>
      {device.verdict ? <Verdict verdict={device.verdict} onNext={device.clearVerdict} /> : null}
      <p className="text-sm" aria-live="polite" data-testid="door-status">
        {device.online ? "Con conexión" : "Sin conexión: seguís acreditando con lo descargado"}
        {device.pending ? ` · ${device.pending} ${device.pending === 1 ? "escaneo" : "escaneos"} sin sincronizar` : ""}
      </p>
      {device.conflicts.length ? (
        <section aria-labelledby="door-conflicts" className="rounded-lg border-2 border-amber-500 p-3 text-sm">
          <h2 id="door-conflicts" className="font-bold">Entradas aceptadas dos veces sin conexión</h2>
          <ul>
            {device.conflicts.map((c, i) => (
              <li key={i}>{c.holderName ?? "Sin titular"}: {c.detail}</li>
            ))}
          </ul>
        </section>
      ) : null}
      <CameraScanner onCode={(text) => void device.scan(text)} paused={device.verdict !== null} />

      <Form noValidate method="post" className="flex flex-col gap-2" onSubmit={onSubmitCode}>
        <input type="hidden" name="intent" value="redeem" />
        <input type="hidden" name="mode" value={mode} />
        <input type="hidden" name="scanId" value={scanId} />
        <label htmlFor="code" className="font-bold">{bar ? "Código de la consumición" : "Código de la entrada"}</label>
        <input
          id="code"
          name="code"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          required
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby="code-help code-error"
          className={`${fieldInputClasses} font-mono text-lg`}
        />
        <p id="code-help" className="text-sm text-[var(--muted)]">Escaneá el QR con un lector o escribí el código que figura debajo del QR.</p>
        <p id="code-error" className="min-h-5 text-sm text-red-600 dark:text-red-400" aria-live="polite">{error}</p>
        <Button type="submit" pending={pending} pendingLabel="Validando…" className="py-4 text-lg">
          {bar ? "Canjear" : "Validar entrada"}
        </Button>
      </Form>

      <section aria-labelledby="search-title" className="flex flex-col gap-2">
        <h2 id="search-title" className="font-bold">Buscar por nombre, DNI o código de compra</h2>
        <Form noValidate method="get" role="search" className="flex gap-2">
          <label htmlFor="buscar" className="sr-only">Nombre, DNI o código de compra</label>
          <input id="buscar" name="buscar" defaultValue={query} minLength={3} placeholder="Ej.: Peña, 30123456, TRB-7KQ2M9" className={fieldInputClasses} />
          <Button type="submit" variant="secondary">Buscar</Button>
        </Form>
        {query && query.trim().length >= 3 ? (
          hits.length ? (
            <ul className="flex flex-col divide-y divide-[var(--border)] rounded-lg border border-[var(--border)]">
              {hits.map((hit) => (
                <li key={hit.code} className="flex items-center justify-between gap-3 p-3">
                  <div className="min-w-0">
                    <p className="truncate font-bold">{hit.holderName}</p>
                    {hit.holderDocument ? <p className="text-sm font-bold">{hit.holderDocument}</p> : null}
                    {hit.seatLabel ? <p className="text-sm font-bold">{hit.seatLabel}</p> : null}
                    <p className="text-sm text-[var(--muted)]">
                      {hit.ticketTypeName} · {hit.orderCode}
                      {hit.status === "redeemed" ? ` · Ingresó ${hit.redeemedAt ? `a las ${hit.redeemedAt}` : ""}${hit.redeemedDoor ? ` por ${hit.redeemedDoor}` : ""}` : ""}
                      {hit.status === "voided" ? " · Anulada" : ""}
                    </p>
                  </div>
                  {hit.status === "redeemable" ? (
                    <Form noValidate method="post">
                      <input type="hidden" name="intent" value="redeem" />
                      <input type="hidden" name="mode" value={mode} />
                      <input type="hidden" name="scanId" value={`${scanId}:${hit.code.slice(0, 8)}`} />
                      <input type="hidden" name="code" value={hit.code} />
                      <Button type="submit" aria-label={`${bar ? "Entregar a" : "Dar ingreso a"} ${hit.holderName}`}>{bar ? "Entregar" : "Dar ingreso"}</Button>
                    </Form>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-[var(--muted)]">No encontramos {bar ? "consumiciones" : "entradas"} de este evento con “{query}”.</p>
          )
        ) : null}
      </section>

      <details className="rounded-lg border border-[var(--border)] p-3">
        <summary className="cursor-pointer font-bold">{bar ? "Cambiar de barra" : "Cambiar de puerta"}</summary>
        <Form noValidate method="post" className="mt-3 flex gap-2">
          <input type="hidden" name="intent" value="door" />
          <label htmlFor="doorName" className="sr-only">{bar ? "Nombre de la barra" : "Nombre de la puerta"}</label>
          <input id="doorName" name="doorName" defaultValue={doorName} placeholder={bar ? "Barra 1" : "Puerta 1"} maxLength={40} className={fieldInputClasses} />
          <Button type="submit" variant="secondary">Guardar</Button>
        </Form>
      </details>
      {byPin ? (
        <Form noValidate method="post">
          <input type="hidden" name="intent" value="lock" />
          <Button type="submit" variant="ghost">Cerrar la puerta en este teléfono</Button>
        </Form>
      ) : null}
    </main>
  );
}
