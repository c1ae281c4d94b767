import type { WebviewStrings } from '../shared/strings';
import { el, iconButton } from './dom';
import { icon } from './icons';
import { post } from './vscodeApi';

/** The bar above the transcript: model picker on the left, History and New chat on the right. */
export class Header {
  readonly element: HTMLElement;
  readonly historyButton: HTMLButtonElement;
  private readonly select: HTMLSelectElement;

  constructor(strings: WebviewStrings, onHistory: () => void) {
    this.select = el('select', { className: 'model-select', attrs: { 'aria-label': strings.model, title: strings.model } });
    this.select.addEventListener('change', () => {
      if (this.select.value) post({ type: 'selectModel', model: this.select.value });
    });
    this.historyButton = iconButton(icon('history'), strings.history);
    this.historyButton.setAttribute('aria-haspopup', 'dialog');
    this.historyButton.addEventListener('click', onHistory);
    const newChat = iconButton(icon('add'), strings.newChat);
    newChat.addEventListener('click', () => post({ type: 'newChat' }));
    this.element = el(
      'header',
      { className: 'header' },
      el('div', { className: 'model-picker' }, this.select),
      el('div', { className: 'header-actions' }, this.historyButton, newChat),
    );
  }

  setModels(models: readonly string[], model: string): void {
    const names = models.includes(model) || !model ? [...models] : [model, ...models];
    this.select.replaceChildren(...names.map((name) => el('option', { text: name, attrs: { value: name } })));
    this.select.value = model;
    this.select.disabled = names.length <= 1;
    this.select.hidden = names.length === 0;
  }
}
