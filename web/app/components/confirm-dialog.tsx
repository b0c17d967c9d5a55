import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The portal's one confirmation dialog (issue 7 for the staff console, issue 23 for the
 * customer's cancel): every step that needs a "are you sure" asks here, never with the
 * browser's `window.confirm()`, so the question looks like the site, speaks the page's language
 * and can be tested. A modal `<dialog>` (role dialog, named by its title and described by its
 * text; the browser traps focus in it and Escape closes it);
 * the element that opened it gets focus back when it closes. It says what will happen, holds
 * the step's fields if it has any, and runs `onConfirm` on submit. While it runs the buttons
 * wait; a failure is shown in the dialog (`error`) so nothing typed is lost. It holds a form of
 * its own, so render it beside any other form, never inside one (a nested form's submit would
 * reach the outer one). Its own words come from `common`, which every page loads.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  cancelLabel,
  danger = false,
  pending = false,
  error,
  children,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  description?: ReactNode;
  confirmLabel: string;
  /** The button that closes without doing anything; "Back" unless the page says otherwise. */
  cancelLabel?: string;
  /** A destructive step (cancel an order, revoke a role): the confirm button says so. */
  danger?: boolean;
  pending?: boolean;
  error?: string | undefined;
  children?: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('common');
  const dialog = useRef<HTMLDialogElement | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const id = useId();
  const titleId = `${id}-title`;
  const descriptionId = `${id}-description`;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current =
        document.activeElement instanceof HTMLElement ? document.activeElement : null;
      element.showModal();
      // The first field; without one, the safe way out for a destructive step (a stray Enter
      // must not cancel an order) and the confirm button otherwise.
      const first =
        element.querySelector<HTMLElement>('input, select, textarea') ??
        element.querySelector<HTMLElement>(danger ? '[data-dialog-back]' : 'button[type="submit"]');
      first?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open, danger]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!pending) onConfirm();
  };

  // Browsers differ on where focus goes when a modal closes; the person continues where they
  // were, on the button that opened it (when it is still on the page), unless the page has
  // already sent focus somewhere on purpose (e.g. to the field a refusal is about).
  const onDialogClose = () => {
    const back = opener.current;
    opener.current = null;
    const active = document.activeElement;
    const unclaimed =
      active === null || active === document.body || dialog.current?.contains(active) === true;
    if (back?.isConnected && unclaimed) back.focus();
    onClose();
  };

  return (
    <dialog
      ref={dialog}
      className="dialog card"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={onDialogClose}
    >
      <form noValidate onSubmit={onSubmit} aria-busy={pending}>
        <h2 id={titleId}>{title}</h2>
        {description ? (
          <div id={descriptionId} className="dialog__description">
            {description}
          </div>
        ) : null}
        {children}
        {error ? (
          <p className="form-message form-message--error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose} data-dialog-back>
            {cancelLabel ?? t('dialog.back')}
          </button>
          <button
            type="submit"
            className={danger ? 'button button--danger' : 'button button--primary'}
            disabled={pending}
            aria-busy={pending || undefined}
          >
            {pending ? t('dialog.working') : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
