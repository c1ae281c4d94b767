import * as vscode from 'vscode';
import { ATTACHMENT_LIMITS, DOCUMENT_TYPES } from '../../serviceFacts/attachmentLimits';
import { type AttachmentChip } from '../../shared/protocol';
import type { FileOutcome, PendingFiles } from './pendingFiles';
import { countMessage } from '../countMessage';

/** The extensions of the picture files the service takes (JPEG, PNG, TIFF, BMP), for the file dialog. */
const PICTURE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'tif', 'tiff', 'bmp'];
const DOCUMENT_EXTENSIONS = Object.keys(DOCUMENT_TYPES);
const MiB = 1024 * 1024;

/**
 * Files coming into the chat's next message: pasted or dropped into the input (the view sends the
 * bytes), or picked with the input's attach button (a file dialog that offers the pictures and
 * documents the service takes). Each is checked before anything else happens to it; one refused
 * is explained in the chat view, by the input: which limit it broke and what to do. Those already
 * attached stay as they were.
 */
export class FileIntake {
  constructor(private readonly pending: PendingFiles) {}

  /**
   * A file pasted or dropped into the input; `bytes` are left out by the view when there are too
   * many. Why it was refused, if it was (a message for the view).
   */
  async received(name: string, size: number, bytes: Uint8Array | undefined): Promise<string[]> {
    return refusals([[name, await this.pending.add(name, size, bytes)]]);
  }

  /** The attach button: the files the user picks, each checked in turn. Why each refused one was (messages for the view). */
  async pick(): Promise<string[]> {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: true,
      openLabel: vscode.l10n.t('Attach'),
      title: vscode.l10n.t('Attach pictures or documents to the message'),
      filters: {
        [vscode.l10n.t('Pictures and documents')]: [...PICTURE_EXTENSIONS, ...DOCUMENT_EXTENSIONS],
        [vscode.l10n.t('Pictures')]: PICTURE_EXTENSIONS,
        [vscode.l10n.t('Documents')]: DOCUMENT_EXTENSIONS,
      },
    });
    const outcomes: [string, FileOutcome][] = [];
    for (const uri of picked ?? []) {
      const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
      const { size } = await vscode.workspace.fs.stat(uri);
      // A file too large for any request is not even read.
      const bytes = size >= ATTACHMENT_LIMITS.requestBytes ? undefined : await vscode.workspace.fs.readFile(uri);
      outcomes.push([name, await this.pending.add(name, size, bytes)]);
    }
    return refusals(outcomes);
  }

  /** The files' chips: the name, and the size in the tooltip. */
  chips(): Promise<AttachmentChip[]> {
    return this.pending.chips((name, bytes) => vscode.l10n.t('{0}, {1} KB', name, String(Math.max(1, Math.round(bytes / 1024)))));
  }
}

/** What the user reads of each file refused: what happened, the limit, what to do. */
function refusals(outcomes: readonly [string, FileOutcome][]): string[] {
  return outcomes.flatMap(([name, outcome]) => ('refused' in outcome ? [refusalText(name, outcome.refused)] : []));
}

function refusalText(name: string, refused: Extract<FileOutcome, { refused: unknown }>['refused']): string {
  const texts = {
    pictureTooLarge: () =>
      vscode.l10n.t(
        '{0} is not attached: it is larger than 15 MB, the most GigaChat takes for a ' +
          'picture. Make it smaller (crop it, or save it as JPEG) and attach it again.',
        name,
      ),
    documentTooLarge: () =>
      vscode.l10n.t('{0} is not attached: it is larger than 40 MB, the most GigaChat takes for a document. Attach the part you want to ask about.', name),
    requestTooLarge: () =>
      vscode.l10n.t(
        '{0} is not attached: GigaChat takes files of less than {1} MB in all with one message, and with this one they would come to more. Remove a file from the message, or attach a smaller part of this one.',
        name,
        String(ATTACHMENT_LIMITS.requestBytes / MiB),
      ),
    unsupportedType: () =>
      vscode.l10n.t(
        '{0} is not attached: GigaChat takes pictures in JPEG, PNG, TIFF and BMP, and documents in TXT, PDF, DOC, DOCX, EPUB, PPT and PPTX only. Save it in one of these formats and attach it again.',
        name,
      ),
    empty: () => vscode.l10n.t('{0} is not attached: the file is empty.', name),
    secondPicture: () =>
      vscode.l10n.t(
        '{0} is not attached: GigaChat takes one picture per message, and this message has one. Send it first and attach the next picture to the next message, or remove the picture attached.',
        name,
      ),
    tooMany: () =>
      countMessage(
        '{0} is not attached: at most {1|# file goes|# files go} with one message. Send the message, or remove a file from it first.',
        name,
        ATTACHMENT_LIMITS.filesPerRequest,
      ),
  };
  return texts[refused]();
}
