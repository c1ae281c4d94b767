import type { Turn } from '../../shared/protocol';
import type { WebviewStrings } from '../../shared/strings';
import { el, iconButton, textButton } from '../dom';
import { withoutImageMarkers } from '../render/pictureSlots';
import { icon } from '../icons';
import { format } from '../webviewStrings';
import type { TurnText } from './turnNotes';

/**
 * The row under a turn: a finished reply's token usage and its actions, Copy reply, Do it in Agent
 * mode (a reply with code) and Regenerate.
 * Regenerate starts hidden: the transcript shows it on the last reply only, and not while busy.
 * A user's turn and a streaming reply have an empty row, and no Regenerate.
 */
export function replyFooter(turn: Turn, { strings }: TurnText): { footer: HTMLElement; regenerate?: HTMLButtonElement } {
  const footer = el('div', { className: 'turn-footer' });
  if (turn.role !== 'assistant' || turn.status === 'streaming') return { footer };
  if (turn.usage) {
    const { promptTokens, completionTokens, totalTokens, precachedTokens = 0 } = turn.usage;
    const details = format(strings.usageDetails, promptTokens, completionTokens, precachedTokens, totalTokens);
    footer.appendChild(
      el('span', {
        className: 'usage',
        text: format(strings.tokens, totalTokens),
        attrs: { title: details, 'aria-label': details, role: 'note' },
      }),
    );
  }
  if (turn.model) {
    const answeredBy = format(strings.answeredBy, turn.model);
    footer.appendChild(el('span', { className: 'reply-model', text: turn.model, attrs: { title: answeredBy, 'aria-label': answeredBy } }));
  }
  const actions = el('div', { className: 'turn-actions' });
  // A reply that is only a picture has no text to copy (the picture has its own buttons).
  if (withoutImageMarkers(turn.content).trim()) {
    const copy = iconButton(icon('copy'), strings.copyReply, 'copy-reply');
    copy.dataset.turnAction = 'copy';
    actions.appendChild(copy);
  }
  // A reply that proposes code: VS Code's agent can make the changes in the workspace.
  if (/^\s*(```|~~~)/m.test(turn.content)) {
    const agent = iconButton(icon('sparkle'), strings.doInAgentMode, 'agent-mode');
    agent.dataset.turnAction = 'agent';
    actions.appendChild(agent);
  }
  const regenerate = hiddenRegenerate(iconButton(icon('refresh'), strings.regenerate, 'regenerate'));
  actions.appendChild(regenerate);
  footer.appendChild(actions);
  return { footer, regenerate };
}

/**
 * A message can be left without a reply: one sent while another reply was being written waits
 * for it, and is not answered if the user moves to another chat meanwhile. Its button asks for
 * the reply (shown only while it is the last turn and nothing runs, like Regenerate).
 */
export function getAnswerFooter(strings: WebviewStrings): { footer: HTMLElement; regenerate: HTMLButtonElement } {
  const regenerate = hiddenRegenerate(textButton(strings.getAnswer, 'button secondary', icon('send')));
  return { footer: el('div', { className: 'turn-footer' }, regenerate), regenerate };
}

function hiddenRegenerate(button: HTMLButtonElement): HTMLButtonElement {
  button.dataset.turnAction = 'regenerate';
  button.hidden = true;
  return button;
}
