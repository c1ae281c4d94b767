import { LIMITS, MAX_FILE_BYTES } from '../../shared/protocol';
import type { WebviewStrings } from '../../shared/strings';
import { iconButton } from '../dom';
import { icon } from '../icons';
import { post } from '../vscodeApi';

/**
 * The ways a picture or a document gets into the next message from the input: pasted (a
 * screenshot or a file in the clipboard), dropped onto the input, or picked with the attach button
 * (the host opens a file dialog). The view reads a pasted or dropped file and sends it to the host,
 * which checks it against the service's limits and shows it as a chip, or says why it is refused; a
 * file too large for any request (20 MB) is not read, only named, so the host can say why it is
 * refused without receiving it.
 */
export class FileInput {
  readonly button: HTMLButtonElement;

  constructor(
    strings: WebviewStrings,
    /** Where a drop is taken: the whole input area. */
    dropTarget: HTMLElement,
    input: HTMLTextAreaElement,
    private readonly enabled: () => boolean,
  ) {
    this.button = iconButton(icon('image'), strings.attachFiles, 'attach-picture', strings.attachFilesDetails);
    this.button.addEventListener('click', () => this.enabled() && post({ type: 'pickFiles' }));
    input.addEventListener('paste', (event) => {
      const files = [...(event.clipboardData?.files ?? [])];
      // Text (and anything else that is not a file) is pasted as usual.
      if (files.length === 0 || !this.enabled()) return;
      event.preventDefault();
      void sendAll(files);
    });
    dropTarget.addEventListener('dragover', (event) => {
      if (!carriesFiles(event) || !this.enabled()) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      dropTarget.classList.add('drop-target');
    });
    dropTarget.addEventListener('dragleave', (event) => {
      if (!dropTarget.contains(event.relatedTarget as Node | null)) dropTarget.classList.remove('drop-target');
    });
    dropTarget.addEventListener('drop', (event) => {
      dropTarget.classList.remove('drop-target');
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length === 0 || !this.enabled()) return;
      event.preventDefault();
      void sendAll(files);
      input.focus();
    });
  }

  setEnabled(enabled: boolean): void {
    this.button.disabled = !enabled;
  }
}

function carriesFiles(event: DragEvent): boolean {
  return [...(event.dataTransfer?.types ?? [])].includes('Files');
}

/** One after the other, in the order given: the host adds them as they come, up to the message's limits. */
async function sendAll(files: File[]): Promise<void> {
  for (const file of files) {
    const bytes = file.size >= MAX_FILE_BYTES ? undefined : new Uint8Array(await file.arrayBuffer());
    post({
      type: 'attachFile',
      name: file.name.slice(0, LIMITS.chipLabel),
      mediaType: file.type.slice(0, 100),
      size: file.size,
      ...(bytes ? { bytes } : {}),
    });
  }
}
