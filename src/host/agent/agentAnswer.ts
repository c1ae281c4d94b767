import * as vscode from 'vscode';
import { LinkGuard, type ModelRound, type ToolTurnListener } from '../../core';
import { commandId } from '../commands';
import { isWorkspaceFileLink } from './answerLinks';

/**
 * A `@gigachat` turn as the chat engine tells it (core/chat/toolTurn.ts), written to VS Code's
 * answer: the text as it streams, with links to anything but the web and the workspace's files
 * made inert (the model is untrusted input), the model's thinking behind a button, and each
 * round's end (`onRound` hears it too, for the log).
 */
export class AgentAnswer implements ToolTurnListener {
  private links = new LinkGuard(isWorkspaceFileLink);
  private readonly thinking: ThinkingSection;

  constructor(
    private readonly stream: vscode.ChatResponseStream,
    private readonly onRound: (round: ModelRound) => void,
  ) {
    this.thinking = new ThinkingSection(stream);
  }

  onText(text: string): void {
    this.show(this.links.push(text));
  }

  onReasoning(text: string): void {
    this.thinking.add(text);
  }

  onRoundEnd(round: ModelRound): void {
    this.show(this.links.end());
    this.links = new LinkGuard(isWorkspaceFileLink);
    this.thinking.end();
    if (round.text && round.calls.length > 0) this.stream.markdown('\n\n');
    this.onRound(round);
  }

  private show(text: string): void {
    if (text) this.stream.markdown(text);
  }
}

/**
 * A reasoning model's thinking in @gigachat's answer: "Reasoning…" while it thinks, then a button
 * after the answer that opens it (VS Code's stable Chat API can neither show thinking nor fold a
 * section). It stays out of the turn's text: it is not sent back to the model with the next questions.
 */
class ThinkingSection {
  private text = '';

  constructor(private readonly stream: vscode.ChatResponseStream) {}

  add(thought: string): void {
    if (this.text === '') this.stream.progress(vscode.l10n.t('Reasoning…'));
    this.text += thought;
  }

  /** The round ended: the button that shows what was thought in it. */
  end(): void {
    if (this.text.trim() === '') return;
    this.stream.button({ command: commandId('showReasoning'), title: vscode.l10n.t("Show GigaChat's reasoning"), arguments: [this.text.trim()] });
    this.text = '';
  }
}
