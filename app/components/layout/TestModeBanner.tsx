/**
 * While payments are simulated (the sandbox: PAYMENTS_SANDBOX, development or
 * the embedded demo), every page says so: nobody should think a purchase here
 * was paid. Fixed colours: readable in both themes.
 */
export function TestModeBanner() {
  return (
    <p role="note" data-testid="test-mode-banner" className="flex h-test-banner items-center justify-center bg-amber-300 px-3 text-center text-xs font-semibold text-black sm:text-sm">
      Modo de prueba: los pagos son simulados
    </p>
  );
}
