import { TEST_MODE_BANNER } from "#common/button-classes";

/**
 * While payments are simulated (the sandbox: PAYMENTS_SANDBOX, development or
 * the embedded demo), every page says so: nobody should think a purchase here
 * was paid. Fixed colours: readable in both themes.
 */
export function TestModeBanner() {
  return (
    <p role="note" data-testid="test-mode-banner" className={TEST_MODE_BANNER.className}>
      {TEST_MODE_BANNER.text}
    </p>
  );
}
