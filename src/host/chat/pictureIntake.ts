import * as vscode from 'vscode';
import { MAX_IMAGE_BYTES } from '../../core/images';
import { MAX_PICTURES, type AttachmentChip } from '../../shared/protocol';
import type { PendingPictures, PictureOutcome } from './pendingPictures';

/** The extensions of the picture files the service takes (JPEG, PNG, TIFF, BMP), for the file dialog. */
const PICTURE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'tif', 'tiff', 'bmp'];

/**
 * Pictures coming into the chat's next message: pasted or dropped into the input (the view sends
 * the bytes), or picked with the input's picture button (a file dialog that offers picture files
 * only). Each is checked before anything else happens to it, and one refused is explained: what
 * the limit or the accepted types are.
 */
export class PictureIntake {
  constructor(private readonly pending: PendingPictures) {}

  /** A picture pasted or dropped into the input; `bytes` are left out by the view when there are too many. */
  async received(name: string, size: number, bytes: Uint8Array | undefined): Promise<void> {
    this.explain(name, await this.pending.add(name, size, bytes));
  }

  /** The picture button: the files the user picks, as many as the message may still take. */
  async pick(): Promise<void> {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: true,
      openLabel: vscode.l10n.t('Attach'),
      title: vscode.l10n.t('Attach pictures to the message'),
      filters: { [vscode.l10n.t('Pictures')]: PICTURE_EXTENSIONS },
    });
    for (const uri of picked ?? []) {
      const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
      const { size } = await vscode.workspace.fs.stat(uri);
      // A file larger than a picture may be is not even read.
      const bytes = size > MAX_IMAGE_BYTES ? undefined : await vscode.workspace.fs.readFile(uri);
      const outcome = await this.pending.add(name, size, bytes);
      this.explain(name, outcome);
      if ('refused' in outcome && outcome.refused === 'full') return;
    }
  }

  /** The pictures' chips: the name, and the size in the tooltip. */
  chips(): Promise<AttachmentChip[]> {
    return this.pending.chips((name, bytes) => vscode.l10n.t('{0}, {1} KB', name, Math.max(1, Math.round(bytes / 1024))));
  }

  /** Says why a picture was not attached (a notification that does not wait). */
  private explain(name: string, outcome: PictureOutcome): void {
    if ('added' in outcome) return;
    const texts = {
      tooLarge: () =>
        vscode.l10n.t(
          '{0} is not attached: it is larger than 15 MB, the most GigaChat takes for a ' +
            'picture. Make it smaller (crop it, or save it as JPEG) and attach it again.',
          name,
        ),
      unsupportedType: () =>
        vscode.l10n.t(
          '{0} is not attached: GigaChat takes pictures in JPEG, PNG, TIFF and BMP only. Save it in one of these formats and attach it again.',
          name,
        ),
      empty: () => vscode.l10n.t('{0} is not attached: the file is empty.', name),
      full: () =>
        vscode.l10n.t(
          '{0} is not attached: at most {1} pictures go with one message. Send the message, or remove a picture from it first.',
          name,
          MAX_PICTURES,
        ),
    };
    void vscode.window.showWarningMessage(texts[outcome.refused]());
  }
}
