import * as RadixDialog from "@radix-ui/react-dialog";
import { useRef, useState, type ButtonHTMLAttributes, type ReactNode } from "react";

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

export const DialogClose = RadixDialog.Close;

type ConfirmProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "title"> & {
  /** Dialog title, e.g. "¿Eliminar el cupón?" */
  title: ReactNode;
  description?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  tone?: keyof typeof confirmTones;
  children: ReactNode;
};

/**
 * A submit button that asks first. Put it inside a `<Form>` (with its hidden
 * fields, and `name`/`value` on the button if needed). Without JavaScript it
 * submits directly; with JavaScript it opens the dialog and submits the same
 * form, with this button as the submitter, only when confirmed.
 */
export function ConfirmButton({
  title,
  description,
  confirmLabel = "Confirmar",
  cancelLabel = "Cancelar",
  tone = "danger",
  children,
  onClick,
  ...buttonProps
}: ConfirmProps) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const confirmed = useRef(false);

  function confirm() {
    const el = button.current;
    setOpen(false);
    if (!el?.form) return;
    confirmed.current = true;
    if (typeof el.form.requestSubmit === "function") el.form.requestSubmit(el);
    else el.click();
    confirmed.current = false;
  }

  return (
    <>
      <button
        {...buttonProps}
        ref={button}
        type="submit"
        onClick={(event) => {
          onClick?.(event);
          if (event.defaultPrevented || confirmed.current) return;
          event.preventDefault();
          setOpen(true);
        }}
      >
        {children}
      </button>
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
