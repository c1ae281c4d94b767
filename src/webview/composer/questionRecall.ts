/**
 * ↑ in the empty chat input brings back the chat's earlier questions, one further back each time,
 * and ↓ comes forward again to the empty input, as in a shell. Within a question of several lines
 * the arrows first move between its lines; text typed or changed is the user's, and the arrows
 * move its caret as usual.
 */
export class QuestionRecall {
  /** The question shown: how far back (0: the last one), and its text. */
  private shown?: { back: number; text: string };

  /** `questions`: those of the chat shown, oldest first. */
  constructor(private readonly questions: () => readonly string[]) {}

  /**
   * What the input shows after ↑ (`step` 1) or ↓ (-1), given what it holds and where its caret is;
   * undefined when the key is the textarea's own.
   */
  step(step: 1 | -1, value: string, caret: number): string | undefined {
    const shown = this.shown?.text === value ? this.shown : undefined;
    if (!shown && (value !== '' || step === -1)) return undefined;
    const lineBeyond = step === 1 ? value.lastIndexOf('\n', caret - 1) !== -1 : value.indexOf('\n', caret) !== -1;
    if (lineBeyond) return undefined;
    const questions = this.questions();
    const back = (shown?.back ?? -1) + step;
    if (back >= questions.length) return questions.length > 0 ? value : undefined; // the first question: stays
    const text = back < 0 ? '' : questions[questions.length - 1 - back];
    this.shown = back < 0 ? undefined : { back, text };
    return text;
  }
}
