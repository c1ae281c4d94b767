import * as z from 'zod';
import type { ViewMessage } from '../shared/protocol';

/**
 * The one channel to the extension host. `acquireVsCodeApi` may be called only once per page, so
 * everything else goes through this module.
 */

/** A field of the saved state: one VS Code restored damaged, or from another version, is dropped and the others kept. */
const kept = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/** What the view remembers across being hidden and shown again (VS Code keeps it per webview). */
const PersistedState = z.object({
  draft: kept(z.string()),
  /** When the draft was typed (this page's clock), to tell it from an older one the host holds. */
  draftAt: kept(z.number()),
  scrollTop: kept(z.number()),
  /** Whether the transcript was scrolled to the bottom (then it stays there when content arrives). */
  pinned: kept(z.boolean()),
  /** A question being edited: its turn, the input's text, and when it was last typed (the draft set aside is `draft`). */
  editing: kept(z.object({ turnId: z.string(), text: z.string(), at: z.number() })),
});
export type PersistedState = z.infer<typeof PersistedState>;

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api: VsCodeApi = acquireVsCodeApi();

/** Messages are typed against the shared contract; the host validates them again on arrival. */
export function post(message: ViewMessage): void {
  api.postMessage(message);
}

export function loadState(): PersistedState {
  return PersistedState.catch({}).parse(api.getState());
}

let current: PersistedState = loadState();

/** Merges into the saved state; setState is synchronous and cheap, so callers need not batch. */
export function saveState(patch: PersistedState): void {
  current = { ...current, ...patch };
  api.setState(current);
}
