import { TextInput } from "./forms";

/**
 * The wallet passes' colours on /organizacion/detalle (decision 221): background and text as #rrggbb,
 * both or neither. The sample shows the saved pair, drawn by the server (no JavaScript).
 */
export function PassColorFields({ saved }: { saved: { background: string; text: string } | null }) {
  return (
    <fieldset className="mt-4 grid gap-x-4 gap-y-2 border-t border-[var(--border)] pt-4 sm:grid-cols-2 sm:items-end">
      <legend className="sr-only">Colores de los pases</legend>
      <div className="sm:col-span-2">
        <h2 className="text-base font-semibold">Colores de los pases de Apple Wallet y Google Wallet (opcional)</h2>
        <p className="text-sm text-[var(--muted)]">
          Las entradas que tu público guarda en la billetera del teléfono usan estos colores. Dejalos vacíos para usar los de Tribuna. El texto tiene que leerse bien sobre el fondo
          (contraste de al menos 4,5:1).
        </p>
      </div>
      <TextInput name="passBackgroundColor" label="Color de fondo" help="Como #rrggbb, por ejemplo #1a2b3c." maxLength={7} autoCapitalize="none" spellCheck={false} />
      <TextInput name="passTextColor" label="Color del texto" help="Como #rrggbb, por ejemplo #ffffff." maxLength={7} autoCapitalize="none" spellCheck={false} />
      {saved ? (
        <div className="sm:col-span-2">
          <p className="text-sm text-[var(--muted)]">Así se ven los colores guardados:</p>
          <div className="mt-1 max-w-xs rounded-xl border border-[var(--border)] p-4" style={{ backgroundColor: saved.background, color: saved.text }}>
            <p className="text-xs uppercase tracking-wide">Evento</p>
            <p className="text-lg font-bold">Tu evento en Tribuna</p>
          </div>
        </div>
      ) : null}
    </fieldset>
  );
}
