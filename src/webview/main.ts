import './zodSetup';
import { HostMessage } from '../shared/protocol';
import { Announcer } from './announcer';
import { Composer } from './composer/composer';
import { el } from './dom';
import { Header } from './header';
import { HistoryPanel } from './history';
import { loadStrings } from './webviewStrings';
import { SyncGuard, typeOf } from './syncGuard';
import { Transcript } from './transcript/transcript';
import { loadState, post } from './vscodeApi';

/**
 * Entry point of the chat webview: builds the view, applies every valid message from the host,
 * and reports user actions back. The host owns all state; the view only renders it (plus its
 * own draft and scroll position, kept in the webview state).
 */

const strings = loadStrings();
const persisted = loadState();
const announcer = new Announcer();
const composer = new Composer(strings, {
  onEditing: (turnId) => {
    transcript.markEditing(turnId);
    // The bar appearing is not reliably read out: a screen reader hears what Enter will now do.
    if (turnId) announcer.announce(strings.editingQuestion);
  },
  questions: () => transcript.questions(),
});
const history = new HistoryPanel(strings);
const transcript = new Transcript(
  strings,
  announcer,
  (text) => composer.usePrompt(text),
  () => composer.focus(),
  (turn) => composer.edit(turn.id, turn.content),
  (before) => post({ type: 'loadEarlier', conversationId, before }),
);
const header = new Header(strings, () => history.open(conversationId));
const sync = new SyncGuard(strings);

let conversationId = '';
let firstState = true;

const app = document.getElementById('app') ?? document.body.appendChild(el('div', { attrs: { id: 'app' } }));
app.classList.add('chat');
app.replaceChildren(header.element, sync.element, transcript.element, composer.element, history.element, announcer.element);

if (persisted.draft) composer.setDraft(persisted.draft, persisted.draftAt);

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = HostMessage.safeParse(event.data);
  if (!parsed.success) {
    // A state the view cannot read is of the chat the host has open, which may not be the one shown:
    // the turns shown go, so the next question never appears under another chat's.
    if (typeOf(event.data) === 'state') showNoChat(event.data);
    sync.failed(event.data, parsed.error.issues);
    return;
  }
  handle(parsed.data);
});

/** Until the chat is sent again: none shown, and the conversation the host named, if it could be read. */
function showNoChat(raw: unknown): void {
  const id = (raw as { conversationId?: unknown }).conversationId;
  conversationId = typeof id === 'string' ? id : '';
  composer.cancelEdit();
  transcript.setTurns([], false, { turns: 0, questions: [] });
}

function handle(message: HostMessage): void {
  switch (message.type) {
    case 'state': {
      const switched = message.conversationId !== conversationId;
      conversationId = message.conversationId;
      sync.stateShown();
      header.setModels(message.models, message.model);
      composer.setModels(message.models, message.model);
      transcript.setHasKey(message.hasKey);
      composer.setEnabled(message.hasKey);
      // A question being edited that this conversation does not have (another chat, or it was replaced) is left.
      if (!message.turns.some((turn) => turn.id === composer.editingTurnId)) composer.cancelEdit();
      transcript.setTurns(message.turns, message.busy, { turns: message.earlierTurns, questions: message.earlierQuestions });
      composer.setBusy(message.busy);
      composer.setAttachments(message.attachments);
      // There is one draft, not one per conversation, and only this view writes it. The host's copy
      // lags behind the input (it is sent debounced), but the webview state VS Code restores after a
      // window reload can be older still: the newer of the two is kept, and the host told of it.
      // Switching conversations leaves the input alone, so nothing just typed is lost.
      if (firstState) {
        if (persisted.draft !== undefined && (persisted.draftAt ?? 0) > (message.draftAt ?? 0)) {
          if (persisted.draft !== message.draft) post({ type: 'draft', text: persisted.draft, at: persisted.draftAt });
        } else {
          composer.setDraft(message.draft, message.draftAt);
        }
        // An edit under way when the window was reloaded comes back, unless its question is gone or
        // a draft was typed after it (the state VS Code restored predates the edit's end).
        const { editing } = persisted;
        if (editing && editing.at > (message.draftAt ?? 0) && message.turns.some((turn) => turn.id === editing.turnId && turn.role === 'user')) {
          composer.edit(editing.turnId, editing.text);
        }
        transcript.restoreScroll(persisted);
      } else if (switched) {
        transcript.restoreScroll({ pinned: true });
      }
      firstState = false;
      break;
    }
    case 'earlierPage':
      if (message.conversationId === conversationId)
        transcript.prependPage(message.before, message.turns, { turns: message.earlierTurns, questions: message.earlierQuestions });
      break;
    case 'turnAdded':
      if (message.conversationId === conversationId) transcript.add(message.turn);
      else sync.outOfStep('turnAdded', 'conversationId: not the chat shown');
      break;
    case 'reasoningDelta':
      transcript.reasoningDelta(message.turnId, message.text);
      break;
    case 'replyWaiting':
      transcript.waiting(message.turnId, message.waiting);
      break;
    case 'delta':
      transcript.delta(message.turnId, message.text);
      break;
    case 'turnUpdated':
      transcript.update(message.turn);
      break;
    case 'busy':
      composer.setBusy(message.busy);
      transcript.setBusy(message.busy);
      break;
    case 'history':
      history.setConversations(message.conversations);
      break;
    case 'models':
      header.setModels(message.models, message.model);
      composer.setModels(message.models, message.model);
      break;
    case 'keyState':
      transcript.setHasKey(message.hasKey);
      composer.setEnabled(message.hasKey);
      break;
    case 'attachments':
      composer.setAttachments(message.attachments);
      break;
    case 'attachmentsRefused':
      composer.showRefusals(message.messages);
      break;
    case 'openHistory':
      history.open(conversationId);
      break;
    case 'focusInput':
      history.close();
      composer.focus();
      break;
  }
}

// Escape stops a running reply from anywhere in the view (the history dialog handles its own first).
// Alt+↑ and Alt+↓ move between messages, as in a screen reader's list of articles, from the input too.
document.addEventListener('keydown', (event) => {
  if (event.defaultPrevented) return;
  if (event.key === 'Escape' && composer.stopIfBusy()) event.preventDefault();
  const arrow = event.key === 'ArrowUp' ? -1 : event.key === 'ArrowDown' ? 1 : 0;
  if (arrow && event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && !history.isOpen && transcript.focusMessage(arrow)) event.preventDefault();
});

// VS Code cannot tell whether focus is inside a webview view: the host hears it from here, for the
// keys bound to the chat (Alt+F2 opens the last answer as plain text).
window.addEventListener('focus', () => post({ type: 'focused', focused: true }));
window.addEventListener('blur', () => post({ type: 'focused', focused: false }));

post({ type: 'ready' });
