import { emitTelegramEvent, mockTelegram } from './sdk.ts';

/*
 * Development outside Telegram: this module plays the Telegram client. It answers what the SDK
 * asks (viewport, safe areas), draws the two buttons Telegram would draw (the main button at
 * the bottom, the back button at the top) and sends their presses back as Telegram does, and
 * keeps a record of every method the app called (`window.__telegramCalls`: haptics, buttons,
 * links), which the end-to-end tests read. Telegram's popups are drawn as a dialog whose button
 * presses go back as `popup_closed`; a write-access request is asked the same way and answered
 * as `write_access_requested` ({ status: 'allowed' | 'cancelled' }), as Telegram answers it.
 * It runs only for a development launch.
 */

interface TelegramCall {
  method: string;
  params: unknown;
}

declare global {
  interface Window {
    __telegramCalls?: TelegramCall[];
  }
}

interface MainButtonParams {
  is_visible?: boolean;
  is_active?: boolean;
  is_progress_visible?: boolean;
  text?: string;
  color?: string;
  text_color?: string;
}

function chrome() {
  const style = document.createElement('style');
  style.textContent = `
    .tg-dev-back, .tg-dev-settings { position: fixed; top: 8px; left: 8px; z-index: 1000; padding: 6px 12px;
      border: 0; border-radius: 16px; background: rgba(0,0,0,.55); color: #fff; font: 14px system-ui; }
    .tg-dev-settings { left: auto; right: 8px; }
    .tg-dev-main { position: fixed; left: 12px; right: 12px; bottom: 12px; z-index: 1000; height: 48px;
      border: 0; border-radius: 12px; font: 600 16px system-ui; }
    .tg-dev-main:disabled { opacity: .6; }
    body.tg-dev-has-main { padding-bottom: 72px; }
    body.tg-dev-has-back { padding-top: 40px; }`;
  document.head.append(style);
  const back = document.createElement('button');
  back.type = 'button';
  back.className = 'tg-dev-back';
  back.textContent = '‹ Back';
  back.hidden = true;
  back.setAttribute('data-telegram', 'back-button');
  back.addEventListener('click', () => emitTelegramEvent('back_button_pressed'));
  const main = document.createElement('button');
  main.type = 'button';
  main.className = 'tg-dev-main';
  main.hidden = true;
  main.setAttribute('data-telegram', 'main-button');
  main.addEventListener('click', () => emitTelegramEvent('main_button_pressed'));
  // Telegram shows "Settings" in the app's own menu; here, a button at the top right.
  const settings = document.createElement('button');
  settings.type = 'button';
  settings.className = 'tg-dev-settings';
  settings.textContent = '⚙ Settings';
  settings.hidden = true;
  settings.setAttribute('data-telegram', 'settings-button');
  settings.addEventListener('click', () => emitTelegramEvent('settings_button_pressed'));
  document.body.append(back, main, settings);
  return { back, main, settings };
}

/**
 * Telegram's QR scanner, where the camera is a text field: what the code holds is typed in and
 * sent as `qr_text_received`; Close answers `scan_qr_popup_closed`, as Telegram does.
 */
function showQrScanner({ text }: { text?: string }): void {
  const dialog = document.createElement('div');
  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('data-telegram', 'qr-scanner');
  dialog.style.cssText =
    'position:fixed;inset:auto 16px 40%;z-index:1001;padding:16px;border-radius:12px;background:#333;color:#fff;font:15px system-ui';
  const field = Object.assign(document.createElement('input'), { type: 'text' });
  field.setAttribute('aria-label', text ?? 'QR code');
  const scan = Object.assign(document.createElement('button'), {
    type: 'button',
    textContent: 'Scan',
  });
  scan.addEventListener('click', () =>
    emitTelegramEvent('qr_text_received', { data: field.value }),
  );
  const close = Object.assign(document.createElement('button'), {
    type: 'button',
    textContent: 'Close',
  });
  close.addEventListener('click', () => {
    dialog.remove();
    emitTelegramEvent('scan_qr_popup_closed');
  });
  dialog.append(
    Object.assign(document.createElement('p'), { textContent: text ?? '' }),
    field,
    scan,
    close,
  );
  document.body.append(dialog);
}

interface PopupParams {
  title?: string;
  message: string;
  buttons: Array<{ id: string; text?: string; type?: string }>;
  /** Telegram's answer to a press; `popup_closed` with the button's id by default. */
  answer?: (buttonId: string) => void;
}

/** Telegram's native popup, as a dialog over the page; a press answers `popup_closed`. */
function showPopup({ title, message, buttons, answer }: PopupParams): void {
  const dialog = document.createElement('div');
  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('data-telegram', 'popup');
  dialog.style.cssText =
    'position:fixed;inset:auto 16px 40%;z-index:1001;padding:16px;border-radius:12px;background:#333;color:#fff;font:15px system-ui';
  for (const line of [title, message].filter(Boolean))
    dialog.append(Object.assign(document.createElement('p'), { textContent: line }));
  for (const button of buttons) {
    const press = Object.assign(document.createElement('button'), {
      type: 'button',
      textContent: button.text ?? button.type ?? button.id,
    });
    press.addEventListener('click', () => {
      dialog.remove();
      if (answer) answer(button.id);
      else emitTelegramEvent('popup_closed', { button_id: button.id });
    });
    dialog.append(press);
  }
  document.body.append(dialog);
}

/**
 * Telegram's file download (Bot API 8.0): the client answers `file_download_requested` with
 * `downloading` (the person accepted its prompt) and fetches the URL itself, outside the app's
 * session; here the browser downloads it as a file.
 */
function downloadFile({ url, file_name }: { url: string; file_name: string }): void {
  emitTelegramEvent('file_download_requested', { status: 'downloading' });
  const link = Object.assign(document.createElement('a'), { href: url, download: file_name });
  link.setAttribute('data-telegram', 'download');
  document.body.append(link);
  link.click();
  link.remove();
}

export function mockTelegramClient(launchParams: string): void {
  const calls: TelegramCall[] = (window.__telegramCalls = []);
  let buttons: ReturnType<typeof chrome> | undefined;
  const ui = () => (buttons ??= chrome());

  mockTelegram(launchParams, (method, params) => {
    calls.push({ method, params });
    switch (method) {
      case 'web_app_request_viewport':
        emitTelegramEvent('viewport_changed', {
          height: window.innerHeight,
          width: window.innerWidth,
          is_expanded: true,
          is_state_stable: true,
        });
        break;
      case 'web_app_request_safe_area':
        emitTelegramEvent('safe_area_changed', { top: 0, bottom: 0, left: 0, right: 0 });
        break;
      case 'web_app_request_content_safe_area':
        emitTelegramEvent('content_safe_area_changed', { top: 0, bottom: 0, left: 0, right: 0 });
        break;
      case 'web_app_setup_back_button': {
        const { back } = ui();
        back.hidden = !(params as { is_visible?: boolean }).is_visible;
        document.body.classList.toggle('tg-dev-has-back', !back.hidden);
        break;
      }
      case 'web_app_setup_main_button': {
        const { main } = ui();
        const state = params as MainButtonParams;
        main.hidden = !state.is_visible;
        main.disabled = state.is_active === false || state.is_progress_visible === true;
        main.textContent = state.is_progress_visible ? '…' : (state.text ?? '');
        if (state.color) main.style.background = state.color;
        if (state.text_color) main.style.color = state.text_color;
        document.body.classList.toggle('tg-dev-has-main', !main.hidden);
        break;
      }
      case 'web_app_open_popup':
        showPopup(params as PopupParams);
        break;
      case 'web_app_setup_settings_button':
        ui().settings.hidden = !(params as { is_visible?: boolean }).is_visible;
        break;
      case 'web_app_open_scan_qr_popup':
        showQrScanner(params as { text?: string });
        break;
      case 'web_app_close_scan_qr_popup':
        document.querySelector('[data-telegram="qr-scanner"]')?.remove();
        break;
      case 'web_app_request_write_access':
        // Telegram asks the person; the answer comes back as write_access_requested.
        showPopup({
          title: 'Write access',
          message: 'Allow the bot to send you messages?',
          buttons: [
            { id: 'cancelled', text: 'Cancel' },
            { id: 'allowed', text: 'Allow' },
          ],
          answer: (id) => emitTelegramEvent('write_access_requested', { status: id }),
        });
        break;
      case 'web_app_open_link':
        window.open((params as { url: string }).url, '_blank', 'noopener');
        break;
      case 'web_app_request_file_download':
        downloadFile(params as { url: string; file_name: string });
        break;
    }
  });
}
