import {
  backButton,
  closingBehavior,
  downloadFile,
  emitEvent,
  hapticFeedback,
  init,
  mainButton,
  miniApp,
  mockTelegramEnv,
  openLink,
  popup,
  qrScanner,
  requestWriteAccess,
  retrieveLaunchParams,
  retrieveRawInitData,
  settingsButton,
  shareURL,
  swipeBehavior,
  targetOrigin,
  themeParams,
  useSignal,
  viewport,
} from '@telegram-apps/sdk-react';

/*
 * Every call into the Telegram Mini Apps SDK lives here (ARCHITECTURE: one module), so screens
 * speak of "the main button" and "a success buzz", not of SDK scopes and versions. Methods the
 * running Telegram version lacks are skipped (`ifAvailable`), never thrown.
 */

/** What Telegram launched us with, read before the router mounts (it lives in the URL hash). */
export interface TelegramLaunch {
  /** The raw init data: the query string the auth service checks, byte for byte. */
  initData: string;
  startParam: string | undefined;
  languageCode: string | undefined;
  /**
   * The Telegram user the launch is for, as the launch data names it (unchecked here; the auth
   * service checks the signature). A stored session is this user's only (sign-in.ts).
   */
  userId: string | undefined;
  /** Telegram's client: `ios`, `macos`, `android`, `tdesktop`, `web`, … (launch parameters). */
  platform: string | undefined;
  /** The launch data says the bot may write to this person (`allows_write_to_pm`). */
  allowsWriteToPm: boolean;
}

/** `tgWebAppData` straight from the hash, for launches whose data the SDK cannot parse. */
function rawInitDataFromHash(): string | undefined {
  const hash = window.location.hash.slice(1);
  if (!hash) return undefined;
  return new URLSearchParams(hash).get('tgWebAppData') ?? undefined;
}

/**
 * The launch data: from the URL hash on the first load, from the SDK's session storage after a
 * reload; undefined when the page was not opened by Telegram. Data the SDK cannot parse is still
 * returned raw, so the auth service (not the client) judges it and the person sees why.
 */
export function readLaunch(): TelegramLaunch | undefined {
  let raw: string | undefined;
  let startParam: string | undefined;
  let platform: string | undefined;
  try {
    const params = retrieveLaunchParams();
    raw = retrieveRawInitData();
    startParam = params.tgWebAppStartParam ?? params.tgWebAppData?.start_param;
    platform = params.tgWebAppPlatform;
  } catch {
    raw = rawInitDataFromHash();
    platform =
      new URLSearchParams(window.location.hash.slice(1)).get('tgWebAppPlatform') ?? undefined;
  }
  if (!raw) return undefined;
  const fields = new URLSearchParams(raw);
  let languageCode: string | undefined;
  let userId: string | undefined;
  let allowsWriteToPm = false;
  try {
    const user = JSON.parse(fields.get('user') ?? 'null') as {
      id?: unknown;
      language_code?: unknown;
      allows_write_to_pm?: unknown;
    } | null;
    if (typeof user?.language_code === 'string') languageCode = user.language_code;
    allowsWriteToPm = user?.allows_write_to_pm === true;
    if (typeof user?.id === 'number' && Number.isSafeInteger(user.id)) userId = String(user.id);
  } catch {
    // A user field that is not JSON: the auth service refuses the launch, with its reason.
  }
  // A t.me link's startapp arrives in the launch data; the bot's web_app buttons carry it in
  // the app's own address (?startapp=), which Telegram keeps.
  const fromAddress = new URLSearchParams(window.location.search).get('startapp') ?? undefined;
  return {
    initData: raw,
    startParam: startParam ?? fields.get('start_param') ?? fromAddress,
    languageCode,
    userId,
    platform,
    allowsWriteToPm,
  };
}

/** telegram-ui's look for Telegram's client: Apple's on iOS and macOS, the base one elsewhere. */
export const uiPlatform = (platform: string | undefined): 'ios' | 'base' =>
  platform === 'ios' || platform === 'macos' ? 'ios' : 'base';

/**
 * Imitates the Telegram client (development outside Telegram): the launch parameters, and
 * every method the app calls on Telegram handed to `onMethod` (dev-client.ts plays Telegram's
 * part: answers, buttons, a record of haptics).
 */
export function mockTelegram(
  launchParams: string,
  onMethod: (method: string, params: unknown) => void,
): void {
  // Where Telegram puts them: in the page's address after `#` (the SDK looks there first; held
  // only in session storage, each of its checks first fails on the address, at a cost).
  if (!new URLSearchParams(window.location.hash.slice(1)).has('tgWebAppData')) {
    const { pathname, search } = window.location;
    window.history.replaceState(window.history.state, '', `${pathname}${search}#${launchParams}`);
  }
  mockTelegramEnv({ launchParams, onEvent: ([method, params]) => onMethod(method, params) });
}

/** Sends an event as the Telegram client would (`main_button_pressed`, `viewport_changed`...). */
export function emitTelegramEvent(name: string, payload?: unknown): void {
  emitEvent(name, payload);
}

/**
 * Starts the SDK with what the first screen draws with: events from Telegram and the theme as
 * CSS variables (`--tg-theme-*`; telegram-ui reads them), light or dark. Returns false when the
 * page is not inside a Telegram client after all. The rest waits: the SDK checks the launch
 * parameters again on each function's first use (about 25 ms each on a slow phone), and all of
 * it before the first render was the page's longest task. The buttons mount on first use
 * (setMainButton, showBackButton); the rest after the first paint (finishTelegramSetup).
 */
export function startTelegram(options: { development: boolean }): boolean {
  // Telegram Web frames the app on web.telegram.org, the only parent the SDK talks to; the
  // development sandbox (bot/src/sandbox) frames it on its own origin.
  if (options.development) targetOrigin.set('*');
  try {
    init();
  } catch {
    return false;
  }
  themeParams.mountSync.ifAvailable();
  themeParams.bindCssVars.ifAvailable();
  return true;
}

/** The viewport as CSS variables (`--tg-viewport-*`, safe areas) once Telegram answers. */
function mountViewport(): void {
  const [mounting, promise] = viewport.mount.ifAvailable();
  if (!mounting) return;
  promise
    .then(() => {
      viewport.bindCssVars.ifAvailable();
      viewport.expand.ifAvailable();
    })
    .catch(() => {
      // An old client without viewport events: the page still fits the window (100vh).
    });
}

let setupFinished = false;

/** Runs `steps` one per task, so the browser can paint and take input between them. */
function oneStepPerTask(steps: Array<() => unknown>): void {
  const [step, ...rest] = steps;
  if (!step) return;
  setTimeout(() => {
    step();
    oneStepPerTask(rest);
  }, 0);
}

/**
 * The set-up that can wait for the first screen: the viewport (it answers asynchronously in any
 * case; until then the page fills the window); Telegram's header, the frame behind the app
 * and the bottom bar take the screen's colour (by the theme's key, so they follow a theme
 * change); a vertical swipe scrolls lists and forms instead of closing the app (it closes from
 * Telegram's header, or asks first while a form holds what the person typed); and "ready", so
 * Telegram drops its placeholder now that there is something to show.
 */
export function finishTelegramSetup(): void {
  if (setupFinished) return;
  setupFinished = true;
  oneStepPerTask([
    () => miniApp.mountSync.ifAvailable(),
    () => miniApp.bindCssVars.ifAvailable(),
    mountViewport,
    () => miniApp.setHeaderColor.ifAvailable('secondary_bg_color'),
    () => miniApp.setBackgroundColor.ifAvailable('secondary_bg_color'),
    () => miniApp.setBottomBarColor.ifAvailable('secondary_bg_color'),
    () => swipeBehavior.mount.ifAvailable(),
    () => swipeBehavior.disableVertical.ifAvailable(),
    () => closingBehavior.mount.ifAvailable(),
    () => miniApp.ready.ifAvailable(),
  ]);
}

/** Light or dark, following Telegram's theme parameters live. */
export function useTelegramDark(): boolean {
  return useSignal(themeParams.isDark);
}

export interface MainButtonState {
  text: string;
  enabled: boolean;
  loading: boolean;
}

/** Sets the main button's text and state, whether it is shown or not (showMainButton's). */
export function setMainButton(state: MainButtonState): void {
  mainButton.mount.ifAvailable();
  mainButton.setParams.ifAvailable({
    text: state.text,
    isEnabled: state.enabled && !state.loading,
    isLoaderVisible: state.loading,
  });
}

/** Shows the main button, calling `onClick` on a press; returns the undo, which hides it. */
export function showMainButton(onClick: () => void): () => void {
  mainButton.mount.ifAvailable();
  mainButton.setParams.ifAvailable({ isVisible: true });
  const [listening, off] = mainButton.onClick.ifAvailable(onClick);
  return () => {
    if (listening) off();
    mainButton.setParams.ifAvailable({ isVisible: false, isLoaderVisible: false });
  };
}

/**
 * Telegram's own popup asking to confirm `message`: `confirm`, `keep` (the other button, or the
 * popup dismissed), or `unsupported` on a client without popups (ask in the page then).
 */
export async function confirmInTelegram(texts: {
  message: string;
  keep: string;
  confirm: string;
}): Promise<'confirm' | 'keep' | 'unsupported'> {
  if (!popup.open.isAvailable()) return 'unsupported';
  const pressed = await popup.open({
    message: texts.message,
    buttons: [
      { id: 'keep', type: 'default', text: texts.keep },
      { id: 'confirm', type: 'destructive', text: texts.confirm },
    ],
  });
  return pressed === 'confirm' ? 'confirm' : 'keep';
}

/** Asks before Telegram closes the app while `active` (a form holds what the person typed). */
export function confirmClosing(active: boolean): () => void {
  if (!active) return () => undefined;
  closingBehavior.enableConfirmation.ifAvailable();
  return () => void closingBehavior.disableConfirmation.ifAvailable();
}

/** Shows Telegram's back button while mounted, calling `onClick` on a press; returns the undo. */
export function showBackButton(onClick: () => void): () => void {
  backButton.mount.ifAvailable();
  backButton.show.ifAvailable();
  const [listening, off] = backButton.onClick.ifAvailable(onClick);
  return () => {
    if (listening) off();
    backButton.hide.ifAvailable();
  };
}

/** Haptic feedback: a result (success, error, warning) or a selection tick. */
export const haptic = {
  success: () => void hapticFeedback.notificationOccurred.ifAvailable('success'),
  error: () => void hapticFeedback.notificationOccurred.ifAvailable('error'),
  warning: () => void hapticFeedback.notificationOccurred.ifAvailable('warning'),
  selection: () => void hapticFeedback.selectionChanged.ifAvailable(),
};

/** Closes the mini-app (Telegram's own close); false where the client cannot. */
export function closeApp(): boolean {
  const [closed] = miniApp.close.ifAvailable();
  return closed;
}

/** Opens a web page (the rules) in Telegram's browser, or a new tab outside it. */
export function openExternalLink(url: string): void {
  const [opened] = openLink.ifAvailable(url);
  if (!opened) window.open(url, '_blank', 'noopener,noreferrer');
}

/**
 * Hands a file to Telegram's own download (Bot API 8.0: Telegram fetches `url` itself, so it
 * must work without our session); on an older client, opens `url` as a link instead.
 */
export async function downloadInTelegram(url: string, fileName: string): Promise<void> {
  if (downloadFile.isAvailable()) {
    await downloadFile(url, fileName);
    return;
  }
  openExternalLink(url);
}

/**
 * Asks Telegram to let the bot write to this person first (web_app_request_write_access, Bot
 * API 6.9): `allowed`, `denied` (cancelled), or `unsupported` on an older client. Granting
 * makes Telegram send the bot a write_access_allowed message, which the bot records.
 */
export async function requestChatWriteAccess(): Promise<'allowed' | 'denied' | 'unsupported'> {
  if (!requestWriteAccess.isAvailable()) return 'unsupported';
  const status = await requestWriteAccess();
  return status === 'allowed' ? 'allowed' : 'denied';
}

/** A note in Telegram's own popup with one button (nothing on a client without popups). */
export async function noticeInTelegram(message: string, ok: string): Promise<void> {
  if (!popup.open.isAvailable()) return;
  await popup.open({ message, buttons: [{ id: 'ok', type: 'default', text: ok }] });
}

export type QrScan = { kind: 'scanned'; text: string } | { kind: 'closed' | 'unsupported' };

/**
 * Telegram's QR scanner (Bot API 6.4) titled `title`: the first code scanned, `closed` when the
 * person closed it, or `unsupported` on a client without one (Telegram Desktop and Web).
 */
export async function scanQrInTelegram(title: string): Promise<QrScan> {
  if (!qrScanner.open.isAvailable()) return { kind: 'unsupported' };
  const scanned = await qrScanner.open({ text: title });
  return scanned === undefined ? { kind: 'closed' } : { kind: 'scanned', text: scanned };
}

/** Whether this client has a QR scanner (to offer the scan button at all). */
export const hasQrScanner = (): boolean => qrScanner.open.isAvailable();

/**
 * Telegram's share sheet for `url` with `text` after it (a t.me/share link; Telegram closes
 * the app to show it); false on a client that cannot.
 */
export function shareInTelegram(url: string, text: string): boolean {
  const [shared] = shareURL.ifAvailable(url, text);
  return shared;
}

/**
 * Shows the Settings item in Telegram's own menu of the app (Bot API 7.0) while mounted,
 * calling `onClick` on a press; returns the undo.
 */
export function showSettingsButton(onClick: () => void): () => void {
  settingsButton.mount.ifAvailable();
  settingsButton.show.ifAvailable();
  const [listening, off] = settingsButton.onClick.ifAvailable(onClick);
  return () => {
    if (listening) off();
    settingsButton.hide.ifAvailable();
  };
}
