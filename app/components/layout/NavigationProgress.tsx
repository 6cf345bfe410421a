import { useNavigation } from "@remix-run/react";

/** A thin bar at the top while a page loads or a form submits (`useNavigation().state !== "idle"`). */
export function NavigationProgress() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <div
      aria-hidden={!busy}
      data-state={navigation.state}
      className={[
        "pointer-events-none fixed inset-x-0 top-0 z-[90] h-0.5 overflow-hidden transition-opacity duration-300",
        busy ? "opacity-100 delay-150" : "opacity-0",
      ].join(" ")}
    >
      {busy ? (
        <>
          <div className="h-full w-full origin-left animate-progress bg-gradient-to-r from-primary-400 via-primary-500 to-secondary-500" />
          <span className="sr-only" role="status">
            Cargando…
          </span>
        </>
      ) : null}
    </div>
  );
}
