export { notify, useNotifications, type Notification, type NotificationKind } from './store.ts';
export { Toaster } from './toaster.tsx';
