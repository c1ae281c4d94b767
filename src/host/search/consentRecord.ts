/**
 * What the user agreed to when they let the workspace be indexed, as kept in the workspace's state,
 * and what that agreement allows now. Free of VS Code, so it is tested on its own.
 *
 * The agreement names the folders whose files may be sent and the embeddings model that embeds
 * them: each model is paid for anew (none of another model's vectors can be reused), so a new
 * model, whether the user or a workspace's `.vscode/settings.json` chose it, is asked about again
 * with what it costs, never used silently. An agreement stored before the model was recorded (a
 * bare list of folders) was given for the model set then, which is the one set now.
 */
export interface ConsentRecord {
  folders: string[];
  /** Undefined in an agreement from before the model was recorded. */
  model?: string;
}

export type ConsentStanding =
  /** The files of every folder may be sent, to this model. */
  | { kind: 'granted' }
  /** No agreement covers every folder of the workspace. */
  | { kind: 'none' }
  /** The folders were agreed to for another model (the index was built with it): sending needs a new agreement. */
  | { kind: 'otherModel'; agreedModel: string };

/** The agreement in the workspace's state, or undefined when there is none (or it is not one). */
export function readConsent(stored: unknown): ConsentRecord | undefined {
  if (Array.isArray(stored)) return { folders: stored.filter((folder): folder is string => typeof folder === 'string') };
  if (typeof stored !== 'object' || stored === null) return undefined;
  const { folders, model } = stored as Partial<Record<keyof ConsentRecord, unknown>>;
  if (!Array.isArray(folders) || typeof model !== 'string') return undefined;
  return { folders: folders.filter((folder): folder is string => typeof folder === 'string'), model };
}

/** What the agreement `stored` allows for a workspace of `folders` indexed with `model`. */
export function consentStanding(stored: unknown, folders: readonly string[], model: string): ConsentStanding {
  const agreed = readConsent(stored);
  if (!agreed || !folders.every((folder) => agreed.folders.includes(folder))) return { kind: 'none' };
  if (agreed.model !== undefined && agreed.model !== model) return { kind: 'otherModel', agreedModel: agreed.model };
  return { kind: 'granted' };
}
