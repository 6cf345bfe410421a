import { useFormAction, useNavigation } from "@remix-run/react";

/** True while this page's own form is being sent (not the header's theme or logout forms). */
export function useIsSubmitting(): boolean {
  const navigation = useNavigation();
  const action = useFormAction();
  if (navigation.state === "idle" || navigation.formMethod?.toUpperCase() !== "POST" || !navigation.formAction) return false;
  return new URL(navigation.formAction, "http://x").pathname === new URL(action, "http://x").pathname;
}
