import { Form, useNavigation } from "@remix-run/react";
import { Button } from "#app/components/ui/Button";
import { fieldInputClasses } from "#app/components/ui/Field";
import { CODE_FIELD, CODE_INTENT, INTENT_FIELD } from "./picker-fields";

/**
 * "¿Tenés un código?": an access code (reveals hidden tickets) or a presale
 * code. It is checked on the server and kept in the saved cart. A
 * `<details>` so it opens without JavaScript.
 */
export function CodeForm({
  action,
  error,
  presaleUnlocked,
  accessCodeApplied,
  hasPresale,
}: {
  action: string;
  error?: string | null;
  presaleUnlocked: boolean;
  accessCodeApplied: boolean;
  hasPresale: boolean;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formData?.get(INTENT_FIELD) === CODE_INTENT;
  const applied = [presaleUnlocked ? "preventa habilitada" : null, accessCodeApplied ? "código de acceso aplicado" : null].filter(Boolean);
  return (
    <details open={Boolean(error) || (hasPresale && !presaleUnlocked)} className="rounded-xl border border-[var(--border)] bg-[var(--surface)]">
      <summary className="cursor-pointer select-none px-4 py-3 font-medium">¿Tenés un código?</summary>
      <div className="px-4 pb-4">
        {applied.length ? (
          <p role="status" className="mb-2 text-sm text-primary-700 dark:text-primary-300">
            ✓ {applied.join(" · ").replace(/^./, (c) => c.toUpperCase())}
          </p>
        ) : null}
        <p className="mb-2 text-sm text-[var(--muted)]">
          {hasPresale && !presaleUnlocked
            ? "Hay entradas de preventa: ingresá el código que te pasaron para verlas."
            : "Si te pasaron un código de preventa o de acceso, ingresalo para ver tus entradas."}
        </p>
        <Form method="post" action={action} className="flex gap-2" aria-label="Ingresar código">
          <input type="hidden" name={INTENT_FIELD} value={CODE_INTENT} />
          <label htmlFor="codigo" className="sr-only">
            Código
          </label>
          <input
            id="codigo"
            name={CODE_FIELD}
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={60}
            placeholder="Código"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "codigo-error" : undefined}
            className={`${fieldInputClasses} min-w-0 flex-1 uppercase placeholder:normal-case`}
          />
          <Button type="submit" variant="secondary" pending={submitting} pendingLabel="Aplicando…">
            Aplicar
          </Button>
        </Form>
        {error ? (
          <p id="codigo-error" role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        ) : null}
      </div>
    </details>
  );
}
