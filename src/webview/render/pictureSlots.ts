import { PICTURE_MARKER, type ImageAttachment, type PictureProblem } from '../../shared/protocol';
import type { WebviewStrings } from '../../shared/strings';
import { el, iconButton, textButton } from '../dom';
import { icon } from '../icons';
import { format, uiLocale } from '../webviewStrings';

/**
 * Where generated pictures go in a reply. The host replaces the i-th media tag of the model's text
 * (`<img src="…" fuse="true"/>`) with U+FFFC OBJECT REPLACEMENT CHARACTER, and `turn.images[i]` is
 * the picture for the i-th marker. Markers become slots when the markdown is rendered; slots are
 * filled once the images arrive (with the turn's final state). Images without a marker are shown
 * after the text, so a host that simply strips the tags still gets them displayed.
 */
const IMAGE_MARKER = PICTURE_MARKER;

/** Whether `text` holds the place of a picture. */
export function hasImageMarkers(text: string): boolean {
  return text.includes(IMAGE_MARKER);
}

/** `text` without the places of its pictures (code shows no marker; a reply's text to copy has none). */
export function withoutImageMarkers(text: string): string {
  return text.replaceAll(IMAGE_MARKER, '');
}

/**
 * Replaces each marker in freshly rendered markdown with an empty slot. A marker in code (the model
 * wrapped its tag in backticks) leaves the code, and its slot goes right after the code block or
 * span: every marker keeps its slot, or each later picture would take the place of the one before.
 */
export function markImageSlots(root: DocumentFragment | HTMLElement, strings: WebviewStrings): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const hits: Text[] = [];
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    if (hasImageMarkers(node.data)) hits.push(node);
  }
  for (const text of hits) {
    const code = text.parentElement?.closest('pre, code');
    if (code) {
      const slots = text.data.split(IMAGE_MARKER).length - 1;
      text.data = withoutImageMarkers(text.data);
      (code.parentElement?.closest('pre') ?? code).after(...Array.from({ length: slots }, () => imageSlot(strings)));
      continue;
    }
    const paragraph = text.parentElement;
    text.replaceWith(...textWithSlots(text.data, () => imageSlot(strings)));
    // A marker on a line of its own is a block picture, not an inline one inside an empty paragraph.
    if (paragraph?.localName === 'p' && onlySlots(paragraph)) {
      paragraph.replaceWith(...paragraph.childNodes);
    }
  }
}

/** `text` as nodes: its runs of text, and a slot where each marker stands (none for empty text). */
export function textWithSlots(text: string, slot: () => HTMLElement): Node[] {
  if (!hasImageMarkers(text)) return text === '' ? [] : [document.createTextNode(text)];
  const nodes: Node[] = [];
  text.split(IMAGE_MARKER).forEach((part, index) => {
    if (index > 0) nodes.push(slot());
    if (part) nodes.push(document.createTextNode(part));
  });
  return nodes;
}

function onlySlots(paragraph: HTMLElement): boolean {
  return [...paragraph.childNodes].every((node) => (node instanceof HTMLElement ? node.classList.contains('image-slot') : !node.textContent?.trim()));
}

/** An empty place for a picture that is on its way. */
export function imageSlot(strings: WebviewStrings): HTMLElement {
  return el(
    'span',
    { className: 'image-slot', attrs: { role: 'img', 'aria-label': strings.imageLoading } },
    el('span', { className: 'image-slot-label', text: strings.imageLoading }),
  );
}

/**
 * Puts `images` into the slots of `body` in order; extra images go to the end. A finished turn's
 * empty slots are removed; a streaming one's keep saying the image is on its way.
 */
export function fillImageSlots(body: HTMLElement, images: readonly ImageAttachment[], strings: WebviewStrings, final: boolean): void {
  const slots = [...body.querySelectorAll<HTMLElement>('.image-slot')];
  images.forEach((image, index) => {
    const figure = imageFigure(image, strings);
    const target = slots[index];
    if (target) target.replaceWith(figure);
    else body.appendChild(figure);
  });
  if (final) for (const unused of slots.slice(images.length)) unused.remove();
}

/** The pictures attached to a question, as thumbnails with the same Open and Save buttons. */
export function questionPictures(images: readonly ImageAttachment[], strings: WebviewStrings): HTMLElement {
  const row = el('div', { className: 'question-pictures' });
  for (const image of images) row.appendChild(imageFigure(image, strings, strings.questionPicture));
  return row;
}

/**
 * A picture with its Open and Save buttons. One the view cannot draw (too large, a type browsers do
 * not show, or a file that does not load) is a placeholder that says why, with the same buttons:
 * the host opens the file in VS Code or saves it, so the picture is never out of reach.
 */
function imageFigure(image: ImageAttachment, strings: WebviewStrings, alt = strings.generatedImage): HTMLElement {
  const save = iconButton(icon('save'), strings.saveImage, 'image-save');
  save.dataset.imageAction = 'save';
  const figure = el('figure', { className: 'reply-image', attrs: { 'data-file-id': image.fileId } }, el('div', { className: 'image-actions' }, save));
  if ('unavailable' in image) {
    figure.prepend(...unavailablePicture(image.unavailable, image.bytes, strings));
    figure.classList.add('image-unavailable');
    return figure;
  }
  const picture = el('img', { attrs: { src: image.src, alt, draggable: 'false' } });
  const open = el(
    'button',
    {
      className: 'image-open',
      attrs: { type: 'button', 'aria-label': strings.openImage, title: strings.openImage, 'data-image-action': 'open' },
    },
    picture,
  );
  picture.addEventListener(
    'error',
    () => {
      open.replaceWith(...unavailablePicture('cannotLoad', undefined, strings));
      figure.classList.add('image-unavailable');
    },
    { once: true },
  );
  figure.prepend(open);
  return figure;
}

/** What stands in a picture's place when the view cannot draw it: why, and the button that opens it. */
function unavailablePicture(problem: PictureProblem, bytes: number | undefined, strings: WebviewStrings): HTMLElement[] {
  // "22.3 MB", "22,3 МБ": the unit in the display language, never on a line of its own.
  const size = new Intl.NumberFormat(uiLocale(), { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 })
    .format((bytes ?? 0) / (1024 * 1024))
    .replace(' ', '\u00a0');
  const text = { tooLarge: format(strings.pictureTooLarge, size), unsupportedType: strings.pictureUnsupported, cannotLoad: strings.pictureCannotLoad }[problem];
  const open = textButton(strings.openImage, 'button secondary image-open-file', icon('openEditor'));
  open.dataset.imageAction = 'open';
  return [el('div', { className: 'image-problem', attrs: { role: 'note' } }, icon('warning'), el('span', { text })), open];
}
