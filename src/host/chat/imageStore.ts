import * as vscode from 'vscode';
import type { ServiceClient } from '../../core';
import type { ImageAttachment } from '../../shared/protocol';

const DATA_URI_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * Pictures the model generated. The host downloads them with its token (the webview never talks
 * to the service) and keeps them in the extension's storage, so history shows them after a restart.
 */
export class ImageStore {
  constructor(
    private readonly folder: vscode.Uri,
    /** Whether other windows keep their pictures in the same folder (then nothing is ever removed). */
    private readonly options: { shared: boolean },
  ) {}

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
    for (const [name] of unused) await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.folder, name), { useTrash: false });
    return unused.length;
  }

  /** Whether the picture is stored. */
  async has(fileId: string): Promise<boolean> {
    return (await this.find(fileId)) !== undefined;
  }

  /** Downloads each file not already stored. */
  async download(client: ServiceClient, fileIds: readonly string[], signal?: AbortSignal): Promise<void> {
    await vscode.workspace.fs.createDirectory(this.folder);
    for (const fileId of fileIds) {
      if (await this.has(fileId)) continue;
      const { bytes, contentType } = await client.fileContent(fileId, { signal });
      const type = sniffImageType(bytes) ?? contentType;
      await vscode.workspace.fs.writeFile(this.uri(fileId, type), bytes);
    }
  }

  /** The stored pictures as data URIs for the webview, skipping any that are missing. */
  async attachments(fileIds: readonly string[]): Promise<ImageAttachment[]> {
    const attachments: ImageAttachment[] = [];
    for (const fileId of fileIds) {
      const uri = await this.find(fileId);
      if (!uri) continue;
      const bytes = await vscode.workspace.fs.readFile(uri);
      const type = sniffImageType(bytes);
      if (type && DATA_URI_TYPES.has(type)) attachments.push({ fileId, dataUri: `data:${type};base64,${Buffer.from(bytes).toString('base64')}` });
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
    for (const extension of ['jpg', 'png', 'gif', 'webp']) {
      const uri = vscode.Uri.joinPath(this.folder, `${fileId}.${extension}`);
      if (await exists(uri)) return uri;
    }
    return undefined;
  }

  private uri(fileId: string, contentType: string): vscode.Uri {
    const extension = { 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' }[contentType] ?? 'jpg';
    return vscode.Uri.joinPath(this.folder, `${fileId}.${extension}`);
  }
}

/** The type from the file's own magic bytes: the service labels JPEGs `application/jpg`. */
export function sniffImageType(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  if (bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46) return 'image/gif';
  if (bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  return undefined;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
