import { DIALOG_SCRIPT, DIALOG_STYLE } from './page-dialogs.ts';

/*
 * The sandbox page: two chats (yours with the bot, and the staff chat) and a phone-sized frame
 * for the mini-app, playing Telegram Web's part for it (its main and back buttons, and the
 * answers the SDK asks Telegram for). Plain HTML and a small script: it is a developer tool.
 */

const STYLE = `
  body { --bg: #0e1621; --panel: #17212b; --text: #e9edf1; --bot: #182533; --user: #2b5278; --input: #242f3d; --accent: #5288c1; --muted: #708499;
    margin: 0; font: 15px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--text); }
  body.light { --bg: #e7ebf0; --panel: #ffffff; --text: #000000; --bot: #f1f1f4; --user: #effdde; --input: #f1f1f4; --accent: #3390ec; --muted: #707579; }
  .options { display: flex; gap: 12px; align-items: center; margin: 0 16px 8px; }
  select { font: inherit; padding: 4px; border-radius: 6px; background: var(--input); color: var(--text); border: 0; }
  h1 { font-size: 18px; margin: 12px 16px; }
  .layout { display: grid; grid-template-columns: 1fr 1fr 390px; gap: 12px; padding: 0 12px 12px; }
  .chat { background: var(--panel); border-radius: 12px; display: flex; flex-direction: column; height: calc(100vh - 70px); }
  .chat h2 { font-size: 15px; margin: 0; padding: 10px 14px; border-bottom: 1px solid var(--bg); }
  .messages { flex: 1; overflow-y: auto; padding: 10px; display: flex; flex-direction: column; gap: 8px; }
  .message { max-width: 85%; padding: 8px 10px; border-radius: 10px; white-space: pre-wrap; word-break: break-word; }
  .message.bot { background: var(--bot); align-self: flex-start; }
  .message.user { background: var(--user); align-self: flex-end; }
  .keyboard { display: flex; flex-direction: column; gap: 4px; margin-top: 6px; }
  .message.service { align-self: center; background: none; color: var(--muted); font-size: 13px; }
  .keyboard button, .keyboard a { background: var(--accent); color: #fff; border: 0; border-radius: 6px; padding: 6px; font: inherit; text-align: center; text-decoration: none; cursor: pointer; }
  form { display: flex; gap: 6px; padding: 8px; }
  input { flex: 1; padding: 8px; border-radius: 8px; border: 0; background: var(--input); color: var(--text); font: inherit; }
  form button, .menu { padding: 8px 12px; border-radius: 8px; border: 0; background: var(--accent); color: #fff; font: inherit; cursor: pointer; }
  .phone { background: var(--panel); border-radius: 12px; display: flex; flex-direction: column; height: calc(100vh - 70px); }
  .phone header { display: flex; gap: 8px; align-items: center; padding: 8px; }
  .phone iframe { flex: 1; border: 0; background: #fff; border-radius: 0 0 12px 12px; }
  .phone .main-button { margin: 8px; height: 44px; border: 0; border-radius: 10px; font: 600 15px system-ui; }
  .phone .empty { flex: 1; display: flex; align-items: center; justify-content: center; color: var(--muted); padding: 20px; text-align: center; }
  [hidden] { display: none !important; }
`;

const SCRIPT = `
const state = { seen: '' };
const chats = { user: document.getElementById('user'), staff: document.getElementById('staff') };
const frame = document.getElementById('web-app');
const mainButton = document.getElementById('main-button');
const backButton = document.getElementById('back-button');
const empty = document.getElementById('no-web-app');

function post(path, body) {
  return fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function openWebApp(url) {
  const answer = await (await fetch('/sandbox/web-app?url=' + encodeURIComponent(url) + launchOptions())).json();
  empty.hidden = true;
  frame.hidden = false;
  mainButton.hidden = true;
  backButton.hidden = true;
  frame.src = answer.src;
}
// write=no in the page's address: the developer plays someone who never pressed Start.
const launchOptions = () => '&theme=' + options.theme + '&platform=' + options.platform + (query.get('write') === 'no' ? '&write=no' : '');

function render(which, chat) {
  const box = chats[which].querySelector('.messages');
  box.textContent = '';
  for (const message of chat.messages) {
    const item = document.createElement('div');
    item.className = 'message ' + (message.write_access_allowed ? 'service' : message.from.is_bot ? 'bot' : 'user');
    item.setAttribute('data-testid', 'message');
    item.textContent = message.write_access_allowed ? 'You allowed this bot to message you.' : message.text;
    const rows = (message.reply_markup && message.reply_markup.inline_keyboard) || [];
    if (rows.length) {
      const keyboard = document.createElement('div');
      keyboard.className = 'keyboard';
      for (const button of rows.flat()) {
        let element;
        if (button.url) {
          element = document.createElement('a');
          element.href = button.url;
          element.target = '_blank';
          element.rel = 'noopener';
        } else {
          element = document.createElement('button');
          element.type = 'button';
          if (button.web_app) element.addEventListener('click', () => openWebApp(button.web_app.url));
          else if (button.callback_data) element.addEventListener('click', () => post('/sandbox/press', { chat: which, messageId: message.message_id, data: button.callback_data }));
        }
        element.textContent = button.text;
        keyboard.append(element);
      }
      item.append(keyboard);
    }
    box.append(item);
  }
  box.scrollTop = box.scrollHeight;
}

async function refresh() {
  try {
    const answer = await (await fetch('/sandbox/state')).json();
    const key = JSON.stringify(answer);
    if (key !== state.seen) {
      state.seen = key;
      render('user', answer.user);
      render('staff', answer.staff);
      showAnswers([...answer.user.answers, ...answer.staff.answers]);
      const menu = answer.menuButton;
      const menuButton = document.getElementById('menu-button');
      menuButton.hidden = !(menu && menu.type === 'web_app');
      if (!menuButton.hidden) { menuButton.textContent = menu.text; menuButton.onclick = () => openWebApp(menu.web_app.url); }
    }
  } catch (error) {}
  setTimeout(refresh, 700);
}

for (const which of ['user', 'staff']) {
  chats[which].querySelector('form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = event.target.querySelector('input');
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    await post('/sandbox/send', { chat: which, text });
  });
}

// Telegram Web's side of the Mini Apps protocol: the app posts methods, we answer with events.
function emit(eventType, eventData) {
  frame.contentWindow.postMessage(JSON.stringify({ eventType, eventData }), '*');
}
window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow) return;
  let message;
  try { message = JSON.parse(event.data); } catch { return; }
  const data = message.eventData || {};
  switch (message.eventType) {
    case 'web_app_request_viewport':
      emit('viewport_changed', { height: frame.clientHeight, width: frame.clientWidth, is_expanded: true, is_state_stable: true });
      break;
    case 'web_app_request_safe_area':
      emit('safe_area_changed', { top: 0, bottom: 0, left: 0, right: 0 });
      break;
    case 'web_app_request_content_safe_area':
      emit('content_safe_area_changed', { top: 0, bottom: 0, left: 0, right: 0 });
      break;
    case 'web_app_setup_main_button':
      mainButton.hidden = !data.is_visible;
      mainButton.disabled = data.is_active === false || data.is_progress_visible === true;
      mainButton.textContent = data.is_progress_visible ? '…' : (data.text || '');
      if (data.color) mainButton.style.background = data.color;
      if (data.text_color) mainButton.style.color = data.text_color;
      break;
    case 'web_app_setup_back_button':
      backButton.hidden = !data.is_visible;
      break;
    case 'web_app_open_link':
      window.open(data.url, '_blank', 'noopener');
      break;
    case 'web_app_open_popup':
      showPopup(data);
      break;
    case 'web_app_request_write_access':
      askWriteAccess();
      break;
    case 'web_app_close':
      frame.hidden = true; frame.src = 'about:blank'; empty.hidden = false; mainButton.hidden = true; backButton.hidden = true;
      break;
  }
});
mainButton.addEventListener('click', () => emit('main_button_pressed'));
backButton.addEventListener('click', () => emit('back_button_pressed'));
document.getElementById('close-button').addEventListener('click', () => {
  frame.hidden = true; frame.src = 'about:blank'; empty.hidden = false; mainButton.hidden = true; backButton.hidden = true;
});
refresh();
`;

function chat(id: string, title: string, placeholder: string): string {
  return `<section class="chat" id="${id}" aria-label="${title}">
    <h2>${title}</h2>
    <div class="messages" aria-live="polite"></div>
    <form><input aria-label="${placeholder}" placeholder="${placeholder}" autocomplete="off" /><button type="submit">Send</button></form>
  </section>`;
}

export function sandboxPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="robots" content="noindex" />
<link rel="icon" href="data:," />
<title>Telegram sandbox</title>
<style>${STYLE}${DIALOG_STYLE}</style>
</head>
<body>
<h1>Telegram sandbox <small>(development: the bot runs against this page's Bot API)</small></h1>
<div class="options">
  <label>Theme <select id="theme"><option value="dark">Dark</option><option value="light">Light</option></select></label>
  <label>Telegram client <select id="platform"><option value="web">Web</option><option value="ios">iOS</option><option value="android">Android</option><option value="tdesktop">Desktop</option></select></label>
</div>
<div class="layout">
  ${chat('user', 'You and the bot (Developer)', 'Message the bot, e.g. /start')}
  ${chat('staff', 'Staff chat (as Operator, not staff)', 'Message in the staff chat')}
  <section class="phone" aria-label="Mini-app">
    <header>
      <button type="button" class="menu" id="back-button" hidden>‹ Back</button>
      <button type="button" class="menu" id="menu-button" hidden></button>
      <button type="button" class="menu" id="close-button">Close</button>
    </header>
    <div class="empty" id="no-web-app">Press a button that opens the exchange, or the menu button.</div>
    <iframe id="web-app" title="Mini-app" hidden></iframe>
    <button type="button" class="main-button" id="main-button" data-telegram="main-button" hidden></button>
  </section>
</div>
<div class="toasts" aria-live="polite"></div>
<script>${DIALOG_SCRIPT}${SCRIPT}</script>
</body>
</html>`;
}
