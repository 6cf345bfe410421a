import * as RadixDialog from "@radix-ui/react-dialog";
import { useId, useRef, useState, type ButtonHTMLAttributes, type ReactNode } from "react";

/**
 * Radix dialogs, for confirmations only (no route-based modals). Import this
 * file only where a dialog is used, so buyer pages that need none do not
 * carry Radix.
 */

const overlayClass = "fixed inset-0 z-[80] bg-black/60 backdrop-blur-[1px]";
const contentClass =
  "fixed left-1/2 top-1/2 z-[81] w-[min(92vw,28rem)] -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-[var(--border)] bg-[var(--bg)] p-6 text-[var(--text)] shadow-2xl focus:outline-none";
const buttonBase =
  "inline-flex min-h-10 items-center justify-center rounded-lg px-4 py-2 text-sm font-bold transition-colors disabled:opacity-60";
const cancelClass = `${buttonBase} border border-[var(--border)] hover:bg-[var(--surface)]`;
const confirmTones = {
  primary: `${buttonBase} bg-primary-500 text-black hover:bg-primary-400`,
  danger: `${buttonBase} bg-red-600 text-white hover:bg-red-500`,
};

/** A controlled dialog with a title, an optional description, a body and actions. */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  actions,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlayClass} />
        <RadixDialog.Content className={contentClass} {...(description ? {} : { "aria-describedby": undefined })}>
          <RadixDialog.Title className="text-lg font-bold">{title}</RadixDialog.Title>
          {description ? (
            <RadixDialog.Description className="mt-2 text-sm text-[var(--muted)]">{description}</RadixDialog.Description>
          ) : null}
          {children ? <div className="mt-4">{children}</div> : null}
          {actions ? <div className="mt-6 flex flex-wrap justify-end gap-2">{actions}</div> : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

type ConfirmProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "title" | "name" | "value" | "formNoValidate"> & {
  /** Dialog title, e.g. "¿Eliminar el cupón?" */
  title: ReactNode;
  description?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  tone?: keyof typeof confirmTones;
  /** Sent with the form when confirmed, as a submit button's name and value are. */
  name?: string;
  value?: string;
  formNoValidate?: boolean;
  children: ReactNode;
};

/**
 * A submit button that asks first. Put it inside a `<Form>` (with its hidden fields, and `name`/`value` on the
 * button if needed): the form is submitted, with those, only from the confirmation.
 *
 * It asks without JavaScript too, and before the page's JavaScript has arrived on a slow phone (decision 140):
 * the button opens a native popover holding the question and the real submit button. Once React runs, the same
 * button opens the Radix dialog instead (focus kept inside, and it works where popovers do not), whose confirm
 * submits through that same hidden submit button. Where neither runs (an old browser without JavaScript) the
 * button does nothing rather than act unasked.
 */
export function ConfirmButton({
  title,
  description,
  confirmLabel = "Confirmar",
  cancelLabel = "Cancelar",
  tone = "danger",
  name,
  value,
  formNoValidate,
  children,
  onClick,
  ...buttonProps
}: ConfirmProps) {
  const [open, setOpen] = useState(false);
  const submit = useRef<HTMLButtonElement>(null);
  const popoverId = `confirmar${useId().replace(/:/g, "")}`;
  const titleId = `${popoverId}-titulo`;

  function confirm() {
    const el = submit.current;
    setOpen(false);
    if (!el?.form) return;
    if (typeof el.form.requestSubmit === "function") el.form.requestSubmit(el);
    else el.click();
  }

  return (
    <>
      {/* First submit button of the ones this adds, and disabled: Enter in a field of a form whose first submit
          this would be does nothing, instead of submitting the confirmation's button unasked. */}
      <button type="submit" disabled aria-hidden="true" aria-label={confirmLabel} tabIndex={-1} className="sr-only" />
      <button
        {...buttonProps}
        {...{ popovertarget: popoverId }}
        type="button"
        onClick={(event) => {
          onClick?.(event);
          if (event.defaultPrevented) return;
          // Hydrated: the Radix dialog, not the popover (cancelling the click cancels the popover's opening).
          event.preventDefault();
          setOpen(true);
        }}
      >
        {children}
      </button>
      <div
        id={popoverId}
        {...{ popover: "auto" }}
        role="dialog"
        aria-labelledby={titleId}
        className="confirm-popover m-auto w-[min(92vw,28rem)] rounded-2xl border border-[var(--border)] bg-[var(--bg)] p-6 text-left text-[var(--text)] shadow-2xl backdrop:bg-black/60"
      >
        <h2 id={titleId} className="text-lg font-bold">
          {title}
        </h2>
        {description ? <p className="mt-2 text-sm text-[var(--muted)]">{description}</p> : null}
        <div className="mt-6 flex flex-wrap justify-end gap-2">
          <button type="button" className={cancelClass} {...{ popovertarget: popoverId, popovertargetaction: "hide" }}>
            {cancelLabel}
          </button>
          <button ref={submit} type="submit" name={name} value={value} formNoValidate={formNoValidate} disabled={buttonProps.disabled} className={confirmTones[tone]}>
            {confirmLabel}
          </button>
        </div>
      </div>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={title}
        description={description}
        actions={
          <>
            <RadixDialog.Close className={cancelClass}>{cancelLabel}</RadixDialog.Close>
            <button type="button" className={confirmTones[tone]} onClick={confirm}>
              {confirmLabel}
            </button>
          </>
        }
      />
    </>
  );
}
