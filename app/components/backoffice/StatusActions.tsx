import { Form } from "@remix-run/react";
import { ConfirmButton } from "#app/components/ui/Dialog";

/**
 * "Pausar"/"Reanudar" and "Eliminar" (with its confirmation) for one row of a
 * back-office list: plain forms posting `intent` and the row's id, so they
 * work without JavaScript; the route's action does the rest.
 */
export function StatusActions(props: {
  idName: string;
  id: string;
  paused: boolean;
  deleteTitle: string;
  deleteDescription: string;
  deleteConfirmLabel: string;
}) {
  return (
    <>
      <Form method="post" className="inline">
        <input type="hidden" name={props.idName} value={props.id} />
        <button type="submit" name="intent" value={props.paused ? "resume" : "pause"} className="text-[var(--accent)] hover:underline">
          {props.paused ? "Reanudar" : "Pausar"}
        </button>
      </Form>
      <Form method="post" className="inline">
        <input type="hidden" name={props.idName} value={props.id} />
        <ConfirmButton
          name="intent"
          value="delete"
          className="text-red-700 hover:underline dark:text-red-400"
          title={props.deleteTitle}
          description={props.deleteDescription}
          confirmLabel={props.deleteConfirmLabel}
        >
          Eliminar
        </ConfirmButton>
      </Form>
    </>
  );
}
