import { DOCUMENT_TYPES } from '../../serviceFacts/attachmentLimits';
import { MAX_IMAGE_BYTES } from '../../serviceFacts/fileFacts';
import * as vscode from 'vscode';
import type { ServiceClient } from '../../core';
import type { PictureStore } from './pictureStore';
import type { ImageAttachment } from '../../shared/protocol';
import { sniffImageType, viewPicture } from './viewPictures';

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'image/tiff': 'tiff', 'image/bmp': 'bmp' };
/** What a stored file may be named with: the pictures' extensions, then the documents' (attached to questions). */
const STORED_EXTENSIONS = ['jpg', 'png', 'gif', 'webp', 'tiff', 'bmp', ...Object.keys(DOCUMENT_TYPES)];

/**
 * Pictures the model generated, and the pictures and documents the user attached to questions. The host downloads them with its token (the webview never talks
 * to the service) and keeps them in the extension's storage, so history shows them after a restart.
 * The view loads them from there itself (the folder is one of its resource roots): no message
 * carries a picture's bytes.
 */
export class ImageStore implements PictureStore {
  /** The address the view loads a stored file from: set once the view exists. */
  private viewAddress?: (file: vscode.Uri) => string;
  /** Each picture's type, read once: a file never changes after it is written. */
  private readonly types = new Map<string, string | undefined>();

  constructor(
    /** Where the pictures are kept. */
    readonly folder: vscode.Uri,
    /** Whether other windows keep their pictures in the same folder (then nothing is ever removed). */
    private readonly options: { shared: boolean },
  ) {}

  /** How the view loads the stored files (`webview.asWebviewUri`). */
  showIn(webview: Pick<vscode.Webview, 'asWebviewUri'>): void {
    this.viewAddress = (file) => webview.asWebviewUri(file).toString();
  }

  /** Deletes the stored pictures whose file id is not in `kept`: those of deleted conversations and replaced replies. */
  async removeAllBut(kept: ReadonlySet<string>): Promise<number> {
    if (this.options.shared) return 0;
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(this.folder);
    } catch {
      return 0; // no picture stored yet
    }
    const unused = entries.filter(([name, type]) => type === vscode.FileType.File && !kept.has(name.slice(0, name.lastIndexOf('.'))));
    for (const [name] of unused) {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.folder, name), { useTrash: false });
      this.types.delete(name.slice(0, name.lastIndexOf('.')));
    }
    return unused.length;
  }

  /** Whether the picture is stored. */
  async has(fileId: string): Promise<boolean> {
    return (await this.find(fileId)) !== undefined;
  }

  /** Keeps a file the user attached: a picture (its type read from its bytes), or a document under its `extension`. */
  async keep(fileId: string, bytes: Uint8Array, extension?: string): Promise<void> {
    await vscode.workspace.fs.createDirectory(this.folder);
    const uri =
      extension && Object.hasOwn(DOCUMENT_TYPES, extension)
        ? vscode.Uri.joinPath(this.folder, `${fileId}.${extension}`)
        : this.uri(fileId, sniffImageType(bytes) ?? 'image/jpeg');
    await vscode.workspace.fs.writeFile(uri, bytes);
  }

  async read(fileId: string): Promise<Uint8Array | undefined> {
    const uri = await this.find(fileId);
    return uri && vscode.workspace.fs.readFile(uri);
  }

  /** Downloads each file not already stored. */
  async download(client: Pick<ServiceClient, 'fileContent'>, fileIds: readonly string[], signal?: AbortSignal): Promise<void> {
    await vscode.workspace.fs.createDirectory(this.folder);
    for (const fileId of fileIds) {
      if (await this.has(fileId)) continue;
      const { bytes, contentType } = await client.fileContent(fileId, { signal });
      const type = sniffImageType(bytes) ?? contentType;
      await vscode.workspace.fs.writeFile(this.uri(fileId, type), bytes);
    }
  }

  /**
   * The stored pictures as the view gets them (their addresses, or why it cannot draw one), skipping
   * any that are missing. A file too large to draw is not even read.
   */
  async attachments(fileIds: readonly string[]): Promise<ImageAttachment[]> {
    const attachments: ImageAttachment[] = [];
    for (const fileId of fileIds) {
      const uri = await this.find(fileId);
      if (!uri) continue;
      const { size } = await vscode.workspace.fs.stat(uri);
      const type = size > MAX_IMAGE_BYTES ? undefined : await this.typeOf(fileId, uri);
      attachments.push(viewPicture(fileId, { bytes: size, type, address: this.viewAddress?.(uri) }));
    }
    return attachments;
  }

  async open(fileId: string): Promise<void> {
    const uri = await this.find(fileId);
    if (uri) await vscode.commands.executeCommand('vscode.open', uri, { preview: true });
  }

  async saveAs(fileId: string): Promise<void> {
    const uri = await this.find(fileId);
    if (!uri) return;
    const extension = uri.path.slice(uri.path.lastIndexOf('.') + 1);
    const defaultUri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? this.folder, `gigachat-${fileId.slice(0, 8)}.${extension}`);
    const target = await vscode.window.showSaveDialog({ defaultUri, filters: { [vscode.l10n.t('Images')]: [extension] } });
    if (target) await vscode.workspace.fs.copy(uri, target, { overwrite: true });
  }

  private async find(fileId: string): Promise<vscode.Uri | undefined> {
    for (const extension of STORED_EXTENSIONS) {
      const uri = vscode.Uri.joinPath(this.folder, `${fileId}.${extension}`);
      if (await exists(uri)) return uri;
    }
    return undefined;
  }

  private async typeOf(fileId: string, uri: vscode.Uri): Promise<string | undefined> {
    if (!this.types.has(fileId)) this.types.set(fileId, sniffImageType(await vscode.workspace.fs.readFile(uri)));
    return this.types.get(fileId);
  }

  private uri(fileId: string, contentType: string): vscode.Uri {
    return vscode.Uri.joinPath(this.folder, `${fileId}.${EXTENSIONS[contentType] ?? 'jpg'}`);
  }
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
