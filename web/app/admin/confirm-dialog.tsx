import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Every operator action in the staff console confirms what it will do first (issue 7): a modal
 * `<dialog>` (focus trapped, Escape closes) that says it, holds the action's fields if it has
 * any, and runs `onConfirm` on submit. While it runs the buttons wait; a failure is shown in
 * the dialog (`error`) so nothing typed is lost. It holds a form of its own, so render it
 * beside any other form, never inside one (a nested form's submit would reach the outer one).
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
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
  /** A destructive step (cancel an order, revoke a role): the confirm button says so. */
  danger?: boolean;
  pending?: boolean;
  error?: string | undefined;
  children?: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const dialog = useRef<HTMLDialogElement | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      element.querySelector<HTMLElement>('input, select, textarea, button[type="submit"]')?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!pending) onConfirm();
  };

  return (
    <dialog ref={dialog} className="dialog card" aria-labelledby="confirm-title" onClose={onClose}>
      <form noValidate onSubmit={onSubmit} aria-busy={pending}>
        <h2 id="confirm-title">{title}</h2>
        {description ? <div className="dialog__description">{description}</div> : null}
        {children}
        {error ? (
          <p className="form-message form-message--error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('actions.back')}
          </button>
          <button
            type="submit"
            className={danger ? 'button button--danger' : 'button button--primary'}
            disabled={pending}
            aria-busy={pending || undefined}
          >
            {pending ? t('actions.working') : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
