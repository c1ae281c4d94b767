import type { ViewMessage } from '../shared/protocol';

/**
 * The one channel to the extension host. `acquireVsCodeApi` may be called only once per page, so
 * everything else goes through this module.
 */

/** What the view remembers across being hidden and shown again (VS Code keeps it per webview). */
export interface PersistedState {
  draft?: string;
  /** When the draft was typed (this page's clock), to tell it from an older one the host holds. */
  draftAt?: number;
  scrollTop?: number;
  /** Whether the transcript was scrolled to the bottom (then it stays there when content arrives). */
  pinned?: boolean;
  /** A question being edited: its turn, the input's text, and when it was last typed (the draft set aside is `draft`). */
  editing?: { turnId: string; text: string; at: number };
}

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
  const state = api.getState();
  if (typeof state !== 'object' || state === null) return {};
  const { draft, draftAt, scrollTop, pinned, editing } = state as Record<string, unknown>;
  return {
    draft: typeof draft === 'string' ? draft : undefined,
    draftAt: isFiniteNumber(draftAt) ? draftAt : undefined,
    scrollTop: isFiniteNumber(scrollTop) ? scrollTop : undefined,
    pinned: typeof pinned === 'boolean' ? pinned : undefined,
    editing: isEditing(editing) ? editing : undefined,
  };
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isEditing(value: unknown): value is PersistedState['editing'] {
  if (typeof value !== 'object' || value === null) return false;
  const { turnId, text, at } = value as Record<string, unknown>;
  return typeof turnId === 'string' && typeof text === 'string' && isFiniteNumber(at);
}

let current: PersistedState = loadState();

/** Merges into the saved state; setState is synchronous and cheap, so callers need not batch. */
export function saveState(patch: PersistedState): void {
  current = { ...current, ...patch };
  api.setState(current);
}
