import type * as vscode from 'vscode';
import * as z from 'zod';

const DRAFT_KEY = 'gigachat.draft';
const StoredDraft = z.union([z.string(), z.object({ text: z.string(), at: z.number() })]);

/** The chat input's draft, kept in the workspace state so it survives the view being hidden or reloaded. */
export class ChatDraft {
  constructor(private readonly workspaceState: vscode.Memento) {}

  /** The draft as the view last reported it (an older version kept only its text). */
  saved(): { draft: string; draftAt: number } {
    const stored = StoredDraft.safeParse(this.workspaceState.get(DRAFT_KEY));
    if (!stored.success) return { draft: '', draftAt: 0 };
    return typeof stored.data === 'string' ? { draft: stored.data, draftAt: 0 } : { draft: stored.data.text, draftAt: stored.data.at };
  }

  /** The view reported its input's text, typed at `at` (its own clock; 0: not known). */
  async save(text: string, at: number): Promise<void> {
    await this.workspaceState.update(DRAFT_KEY, { text, at });
  }
}
