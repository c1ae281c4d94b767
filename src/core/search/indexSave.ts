import { saveKeywords } from './keyword/keywordIndexFile';
import type { WorkspaceIndexer } from './indexer';

/**
 * When the keyword index and the chunk boundaries beside the embedding cache are written besides
 * the cache itself. They are shortcuts for the next window's rescan (no file parsed, no chunk split
 * into words again), not the index: ones that lag behind the files only cost that rescan the files
 * changed since, parsed and split again. And they are written whole (some 300 bytes a chunk, more
 * than a hundred times an edited file's own rows at 20,000 chunks), so an edit does not write them:
 *   - `changed`: when any file was parsed or removed since they were last written (the end of a
 *     scan, the window closing), so that the next window parses nothing that did not change;
 *   - `stale`: only once the files changed since pass a quarter of those indexed (an edit), so that
 *     their cost spread over the edits stays a small multiple of the edited files' own rows.
 */
export type ShortcutsPolicy = 'changed' | 'stale';

/** An edit writes the shortcuts once this share of the indexed files changed since they were written. */
export const STALE_SHORTCUTS_SHARE = 1 / 4;

/**
 * Writes what `indexer` holds that its files on disk lack: the embedding cache's new rows (after
 * forgetting, with `prune`, the vectors and records of what no indexed file has any more: only
 * after a complete scan, when the index holds every file), and the shortcuts as `shortcuts` says.
 */
export async function saveSearchIndex(indexer: WorkspaceIndexer, prune: boolean, shortcuts: ShortcutsPolicy): Promise<void> {
  const { boundaries, keywords } = indexer;
  if (prune) {
    indexer.cache.prune(indexer.liveKeys());
    boundaries?.retain(indexer.paths());
    keywords.forgetSaved();
  }
  await indexer.cache.save();
  const lag = indexer.shortcutLag;
  const due = shortcuts === 'changed' ? lag > 0 : lag >= Math.max(1, indexer.stats.files * STALE_SHORTCUTS_SHARE);
  if (!due) return;
  await boundaries?.save();
  const { snapshot, files } = keywords.toSave();
  await saveKeywords(indexer.cache.directory, indexer.cache.model, snapshot, files);
  indexer.shortcutsSaved();
}
