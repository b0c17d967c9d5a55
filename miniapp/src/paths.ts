/*
 * Paths of mini-app screens that other parts of the app link to (under the app's base path).
 * Telegram's settings button opens SETTINGS_PATH (issue 22).
 */

/** Settings: the anti-phishing phrase. */
export const SETTINGS_PATH = '/settings';

/** A completed order's receipt. */
export const receiptPath = (orderId: string): string => `/transaction/${orderId}/receipt`;
