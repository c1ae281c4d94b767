import type * as vscode from 'vscode';
import * as z from 'zod';
import { MAX_ATTACHMENTS, type AttachmentChip } from '../../shared/protocol';
import { excerptLabel, excerptLocation, excerptNotice, quotedExcerpt, type CodeExcerpt } from '../explain/codeExcerpts';
import type { Prompt } from '../../core';

/** As kept in the workspace state: read back with a check, as a newer or older version may have written it. */
const Attachment = z.object({
  id: z.string(),
  file: z.string(),
  first: z.number(),
  last: z.number(),
  language: z.string(),
  code: z.string(),
  trimmed: z.boolean(),
  wholeFile: z.boolean().optional(),
  masked: z.number().optional(),
});
type Attachment = z.infer<typeof Attachment>;

const STATE_KEY = 'gigachat.attachments';
/** The protocol's limit for a turn's context label. */
const MAX_LABEL_CHARS = 300;

export type AttachOutcome = 'added' | 'alreadyAttached' | 'full';

/**
 * Code the user attached to the next message (Add Selection to GigaChat), shown as chips above the
 * input until the message is sent or a chip removed. Kept in the workspace state beside the draft,
 * so a reload of the window loses neither.
 */
export class PendingAttachments {
  private attachments: Attachment[];

  constructor(private readonly state: vscode.Memento) {
    const kept = z.array(Attachment).max(MAX_ATTACHMENTS).safeParse(state.get(STATE_KEY, []));
    this.attachments = kept.success ? kept.data : [];
  }

  async add(excerpt: CodeExcerpt): Promise<AttachOutcome> {
    const same = (other: CodeExcerpt) => excerptLocation(other) === excerptLocation(excerpt) && other.code === excerpt.code;
    if (this.attachments.some(same)) return 'alreadyAttached';
    if (this.attachments.length >= MAX_ATTACHMENTS) return 'full';
    await this.save([...this.attachments, { ...excerpt, id: crypto.randomUUID() }]);
    return 'added';
  }

  async remove(id: string): Promise<void> {
    await this.save(this.attachments.filter((attachment) => attachment.id !== id));
  }

  /** The message `text` with the attachments the view showed with it, which are used up. */
  async prompt(text: string, ids: readonly string[] = []): Promise<Prompt> {
    const sent = this.attachments.filter((attachment) => ids.includes(attachment.id));
    if (sent.length === 0) return { text };
    await this.save(this.attachments.filter((attachment) => !sent.includes(attachment)));
    return {
      text: [text, ...sent.map(quotedExcerpt)].join('\n\n'),
      contextLabel: clip(sent.map(excerptLabel).join(', '), MAX_LABEL_CHARS),
      notice: excerptNotice(sent),
    };
  }

  chips(): AttachmentChip[] {
    return this.attachments.map((excerpt) => ({ id: excerpt.id, label: excerptLabel(excerpt), title: excerptLocation(excerpt) }));
  }

  private async save(attachments: Attachment[]): Promise<void> {
    this.attachments = attachments;
    await this.state.update(STATE_KEY, attachments.length > 0 ? attachments : undefined);
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
