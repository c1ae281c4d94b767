import { modelSeesPictures, pictureModelAmong } from '../../serviceFacts/modelFacts';
import type { WebviewStrings } from '../../shared/strings';
import { el, textButton } from '../dom';
import { icon } from '../icons';
import { format } from '../webviewStrings';
import { post } from '../vscodeApi';

/**
 * Above the attachments, while a picture waits for the next message and the model chosen cannot see
 * pictures: says so before anything is uploaded (the service would refuse the question), with a
 * button that switches to a model that can, as the model picker does. The host answers with the
 * models, and the warning goes.
 */
export class PictureModelWarning {
  readonly element: HTMLElement;
  private models: readonly string[] = [];
  private model = '';
  private hasPicture = false;

  constructor(
    private readonly strings: WebviewStrings,
    /** Where focus goes once the button was pressed: the warning is about to go. */
    private readonly focusInput: () => void,
  ) {
    this.element = el('div', { className: 'picture-model-warning', attrs: { role: 'status' } });
    this.element.hidden = true;
  }

  setModels(models: readonly string[], model: string): void {
    this.models = models;
    this.model = model;
    this.update();
  }

  setHasPicture(hasPicture: boolean): void {
    this.hasPicture = hasPicture;
    this.update();
  }

  private update(): void {
    const warn = this.hasPicture && this.model !== '' && !modelSeesPictures(this.model);
    this.element.hidden = !warn;
    if (!warn) {
      this.element.replaceChildren();
      return;
    }
    const target = pictureModelAmong(this.models);
    const switchModel = textButton(format(this.strings.usePictureModel, target), 'button secondary picture-model-switch');
    switchModel.addEventListener('click', () => {
      post({ type: 'selectModel', model: target });
      this.focusInput();
    });
    this.element.replaceChildren(icon('warning'), el('span', { text: format(this.strings.pictureUnseen, this.model) }), switchModel);
  }
}
