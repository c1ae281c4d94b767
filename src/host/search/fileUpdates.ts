import * as vscode from 'vscode';
import { IgnoreRules, LinkFinder, readSelectedFile, type FileSelection, type LinkOnPath, type WorkspaceIndexer } from '../../core';
import type { SearchSettings } from './searchSettings';
import { locateIn, type WorkspaceFolderSource } from './workspaceFolderSource';

/** How many of a new folder's files are looked at to tell whether any of them belongs in the index. */
const FOLDER_SAMPLE = 20;

/** What a created or saved path means for the index, as read from disk. */
export type FileUpdate =
  /** A folder appeared: whether it brings files to index (which no event names one by one). */
  | { kind: 'folder'; bringsFiles: boolean }
  /** The file does not belong in the index (any more): excluded, too large, binary, gone, over the limit. */
  | { kind: 'remove' }
  /** A symbolic link is on the path's way: nothing at or below it belongs in the index. */
  | { kind: 'link'; link: LinkOnPath }
  | { kind: 'index'; text: string };

/** What the last full scan found: the files it selected, and the workspace's folders with their rules. */
export type ScanScope = FileSelection<WorkspaceFolderSource>;

/** Whether a change to the path `key` can matter to the index: one it may hold (its rules do not exclude it), or one holding rules. */
export function mayMatter(scope: ScanScope, key: string): boolean {
  const located = locateIn(scope.rules.keys(), vscode.Uri.parse(key));
  if (!located) return false;
  const rules = scope.rules.get(located.source);
  return IgnoreRules.holdsRules(located.path) || (rules !== undefined && !rules.excludes(located.path));
}

export interface FileToUpdate {
  source: WorkspaceFolderSource;
  /** Relative to the source's folder. */
  path: string;
  /** The rules the last full scan checked the source's files against. */
  rules: IgnoreRules;
}

/** Reads what a change to `path` means; changes nothing (the caller applies it if nothing else changed meanwhile). */
export async function planFileUpdate(indexer: WorkspaceIndexer, { source, path, rules }: FileToUpdate, settings: SearchSettings): Promise<FileUpdate> {
  const key = source.keyOf(path);
  // Looked at afresh: a link made since the last scan (a file saved through it, a folder linked in) must not be followed.
  const link = await new LinkFinder(source.linkProbe()).firstLink(path);
  if (link) return { kind: 'link', link };
  if (await source.isFolder(path)) {
    // A folder moved in or unpacked outside VS Code; one of build output, dependencies or git's own
    // (all excluded) brings nothing to index.
    const isNew = !indexer.paths().some((indexed) => isBelow(indexed, key));
    return { kind: 'folder', bringsFiles: isNew && (await source.listedUnder(path, FOLDER_SAMPLE)).some((file) => !rules.excludes(file)) };
  }
  const fits = indexer.file(key) !== undefined || indexer.stats.files < settings.maxFiles;
  if (rules.excludes(path) || !fits || !(await source.isListed(path))) return { kind: 'remove' };
  const read = await readSelectedFile({ folder: source, path, key }, settings.maxFileBytes);
  return typeof read === 'string' ? { kind: 'remove' } : { kind: 'index', text: read.text };
}

/** Removes `key` and everything below it (a deleted folder); whether anything was indexed there. */
export function removeAtOrBelow(indexer: WorkspaceIndexer, key: string): boolean {
  let removed = false;
  for (const path of indexer.paths()) if (path === key || isBelow(path, key)) removed = indexer.removeFile(path) || removed;
  return removed;
}

/** Moves what is indexed at or below `fromKey` to `toKey`, vectors and all; returns the new keys. */
export function moveAtOrBelow(indexer: WorkspaceIndexer, fromKey: string, toKey: string): string[] {
  const moves = indexer.paths().flatMap((path) => (path === fromKey || isBelow(path, fromKey) ? [[path, toKey + path.slice(fromKey.length)]] : []));
  for (const [oldKey, newKey] of moves) indexer.renameFile(oldKey, newKey);
  return moves.map(([, newKey]) => newKey);
}

/** Whether the key `path` lies inside the folder `key` (keys are URIs, `/`-separated). */
function isBelow(path: string, key: string): boolean {
  return path.startsWith(`${key}/`);
}
