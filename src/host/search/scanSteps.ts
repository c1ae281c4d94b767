import * as vscode from 'vscode';
import { readSelectedFiles, selectFiles, type FileSelection, type IndexProgress, type LinkOnPath, type LinkReason, type WorkspaceIndexer } from '../../core';
import type { Log } from '../log';
import { saveIndexerCache } from './indexerCache';
import type { SearchSettings } from './searchSettings';
import { WorkspaceFolderSource } from './workspaceFolderSource';

// The two steps of a full scan of the workspace; between them the user is asked before anything is sent.

/** Step 1: the files of the workspace's folders that may be indexed (rules and limits applied). */
export async function selectWorkspaceFiles(settings: SearchSettings, signal: AbortSignal, log: Log): Promise<FileSelection<WorkspaceFolderSource>> {
  const sources = (vscode.workspace.workspaceFolders ?? []).map((folder) => new WorkspaceFolderSource(folder));
  const selection = await selectFiles(sources, settings, signal);
  const leftOut = [...selection.skipped].map(([reason, count]) => `${count} ${reason}`).join(', ') || 'none';
  log.info(`Search index: ${selection.files.length} files selected; left out by rule or limit: ${leftOut}`);
  if (selection.links.length > 0) log.info(`Search index: ${describeLinks(selection.links)}`);
  return selection;
}

/** Each kind of symbolic link left out, as the log says it. */
const LINK_REASONS: Record<LinkReason, string> = {
  linkOutside: 'leading outside the workspace folder',
  linkBroken: 'dangling or in a loop',
  linkWithin: 'leading within the folder (what they point to is indexed, or not, under its own path)',
  linkUnresolved: 'on a file system where links cannot be followed',
};

/** A link left out, for the log: `symbolic link src/home leading outside the workspace folder`. */
export function describeLink({ link, reason }: LinkOnPath): string {
  return `symbolic link ${link} ${LINK_REASONS[reason]}`;
}

/** The links a scan left out, for the log: how many, and a few of each kind by name (never what they point to). */
function describeLinks(links: readonly LinkOnPath[]): string {
  const kinds = Object.entries(LINK_REASONS).flatMap(([reason, label]) => {
    const named = links.filter((link) => link.reason === reason).map((link) => link.link);
    const more = named.length > 3 ? `, and ${named.length - 3} more` : '';
    return named.length > 0 ? [`${named.length} ${label}: ${named.slice(0, 3).join(', ')}${more}`] : [];
  });
  return `${links.length} symbolic link${links.length === 1 ? '' : 's'} left out, nothing read through them; ${kinds.join('; ')}`;
}

/**
 * Step 2: indexes the selected files (only new or changed chunks are embedded), and drops from the
 * index the files that left the workspace or stopped qualifying. The cache is written either way:
 * what a cancelled or failed run finished is kept.
 */
export async function indexSelection(
  indexer: WorkspaceIndexer,
  selection: FileSelection,
  maxFileBytes: number,
  options: { signal: AbortSignal; onProgress: (progress: IndexProgress) => void; log: Log },
): Promise<void> {
  const { log } = options;
  const unusable = new Set<string>();
  const chunkedBefore = indexer.chunkedFiles;
  try {
    const result = await indexer.indexAll(
      () => {
        unusable.clear();
        return readSelectedFiles(selection.files, maxFileBytes, (file) => unusable.add(file.key));
      },
      {
        signal: options.signal,
        onProgress: options.onProgress,
        onVectorsDiscarded: (reason) => log.warn(`Search index: ${reason} The cached vectors are discarded and the workspace is indexed again.`),
      },
    );
    const chunked = indexer.chunkedFiles;
    log.info(
      `Search index: ${result.files} files, ${result.chunks} chunks; ${result.embeddedChunks} embedded in ${result.requests} requests, ` +
        `${result.cachedChunks} from the cache, ${unusable.size} skipped by content; ` +
        `${chunked.parsed - chunkedBefore.parsed} files parsed, ${chunked.reused - chunkedBefore.reused} cut as recorded before (unchanged)`,
    );
  } finally {
    await saveIndexerCache(indexer, false, 'changed', log);
  }
  const wanted = new Set(selection.files.map((file) => file.key).filter((key) => !unusable.has(key)));
  for (const path of indexer.paths()) if (!wanted.has(path)) indexer.removeFile(path);
  await saveIndexerCache(indexer, true, 'changed', log);
}
