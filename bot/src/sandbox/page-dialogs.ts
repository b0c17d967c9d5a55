/*
 * The sandbox page's Telegram chrome beyond the chats: the launch options (theme and client,
 * kept in the page's query so a link reproduces them), the bot's answers to button presses
 * (a toast that goes after a few seconds, an alert with OK, a URL opened), and the dialogs
 * Telegram draws for a mini-app (its popup, and the write-access request, whose answer goes
 * to the emulator as Telegram's would). A script run before the page's own (page.ts).
 */

export const DIALOG_STYLE = `
  .toasts { position: fixed; top: 16px; left: 50%; transform: translateX(-50%); display: flex; flex-direction: column; gap: 8px; z-index: 20; }
  .toast { background: rgba(0,0,0,.8); color: #fff; padding: 10px 16px; border-radius: 10px; max-width: 360px; }
  .dialog-backdrop { position: fixed; inset: 0; background: rgba(0,0,0,.45); display: flex; align-items: center; justify-content: center; z-index: 30; }
  .dialog { background: var(--panel); color: var(--text); border-radius: 12px; padding: 18px; width: 300px; display: flex; flex-direction: column; gap: 12px; }
  .dialog p { margin: 0; white-space: pre-wrap; }
  .dialog .buttons { display: flex; justify-content: flex-end; gap: 8px; }
  .dialog button { border: 0; background: none; color: var(--accent); font: 600 15px system-ui; padding: 6px 10px; cursor: pointer; }
  .dialog button.destructive { color: #e53935; }
`;

export const DIALOG_SCRIPT = `
const query = new URLSearchParams(location.search);
const options = {
  theme: query.get('theme') === 'light' ? 'light' : 'dark',
  platform: ['web', 'ios', 'android', 'tdesktop'].includes(query.get('platform')) ? query.get('platform') : 'web',
};
function applyOptions() {
  document.body.classList.toggle('light', options.theme === 'light');
  document.getElementById('theme').value = options.theme;
  document.getElementById('platform').value = options.platform;
  const next = new URLSearchParams(location.search);
  next.set('theme', options.theme);
  next.set('platform', options.platform);
  history.replaceState(null, '', location.pathname + '?' + next.toString());
}
for (const name of ['theme', 'platform']) {
  document.getElementById(name).addEventListener('change', (event) => {
    options[name] = event.target.value;
    applyOptions();
  });
}
applyOptions();

/** A modal dialog with a message and buttons; resolves with the pressed button's id. */
function dialog(label, message, buttons) {
  return new Promise((resolve) => {
    const backdrop = document.createElement('div');
    backdrop.className = 'dialog-backdrop';
    const box = document.createElement('div');
    box.className = 'dialog';
    box.setAttribute('role', 'alertdialog');
    box.setAttribute('aria-label', label);
    const text = document.createElement('p');
    text.textContent = message;
    const row = document.createElement('div');
    row.className = 'buttons';
    for (const button of buttons) {
      const press = document.createElement('button');
      press.type = 'button';
      press.textContent = button.text;
      if (button.type === 'destructive') press.className = 'destructive';
      press.addEventListener('click', () => { backdrop.remove(); resolve(button.id); });
      row.append(press);
    }
    box.append(text, row);
    backdrop.append(box);
    document.body.append(backdrop);
    row.querySelector('button')?.focus();
  });
}

function toast(text) {
  const item = document.createElement('div');
  item.className = 'toast';
  item.setAttribute('role', 'status');
  item.textContent = text;
  document.querySelector('.toasts').append(item);
  setTimeout(() => item.remove(), 3000);
}

// Answers already there when the page opened are old news: only newer ones show.
let answersSeen;
function showAnswers(answers) {
  const newest = answers.reduce((most, answer) => Math.max(most, answer.id), 0);
  if (answersSeen === undefined) { answersSeen = newest; return; }
  for (const answer of answers.filter((item) => item.id > answersSeen).sort((a, b) => a.id - b.id)) {
    if (answer.url) window.open(answer.url, '_blank', 'noopener');
    if (!answer.text) continue;
    if (answer.show_alert) void dialog('Alert', answer.text, [{ id: 'ok', text: 'OK' }]);
    else toast(answer.text);
  }
  answersSeen = Math.max(answersSeen, newest);
}

// Telegram's popup for the mini-app: its buttons, the pressed one's id back as popup_closed.
async function showPopup(data) {
  const labels = { ok: 'OK', close: 'Close', cancel: 'Cancel' };
  const buttons = (data.buttons && data.buttons.length ? data.buttons : [{ id: '', type: 'close' }])
    .map((button) => ({ id: button.id, type: button.type, text: button.text || labels[button.type] || 'OK' }));
  const pressed = await dialog(data.title || 'Popup', data.message, buttons);
  emit('popup_closed', { button_id: pressed });
}

// Telegram asks the person whether the bot may write to them; allowed, Telegram tells the bot.
async function askWriteAccess() {
  const pressed = await dialog('Write access', 'Allow the bot to send you messages?', [
    { id: 'cancelled', text: 'Cancel' },
    { id: 'allowed', text: 'Allow' },
  ]);
  await post('/sandbox/write-access', { allowed: pressed === 'allowed' });
  emit('write_access_requested', { status: pressed });
}
`;
