import { create } from 'zustand';

/*
 * Notifications (spec section 8): "Error" / "Something went wrong" by default for failures,
 * "Success" for successes. Texts given here are already translated; left out, the toaster shows
 * the generic ones in the page's language.
 */

export type NotificationKind = 'success' | 'error';

export interface Notification {
  id: number;
  kind: NotificationKind;
  title?: string;
  description?: string;
}

interface NotifyState {
  items: Notification[];
}

/** At most this many stay on screen; the oldest goes first. */
const MAX_VISIBLE = 4;

export const useNotifications = create<NotifyState>(() => ({ items: [] }));

let nextId = 1;

function push(kind: NotificationKind, description?: string, title?: string): number {
  const id = nextId++;
  const item: Notification = {
    id,
    kind,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
  };
  useNotifications.setState((state) => ({ items: [...state.items, item].slice(-MAX_VISIBLE) }));
  return id;
}

export const notify = {
  /** "Success", with an optional description. Returns the notification's id. */
  success: (description?: string, title?: string) => push('success', description, title),
  /** "Error" / "Something went wrong" unless other (translated) texts are given. */
  error: (description?: string, title?: string) => push('error', description, title),
  dismiss(id: number) {
    useNotifications.setState((state) => ({ items: state.items.filter((item) => item.id !== id) }));
  },
  clear() {
    useNotifications.setState({ items: [] });
  },
};
