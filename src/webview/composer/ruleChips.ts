import { fileLinkHref } from '../../shared/fileLinks';
import type { WebviewStrings } from '../../shared/strings';
import { el } from '../dom';
import { icon } from '../icons';

/**
 * The project's rule files a reply followed (AGENTS.md and the like), under it: each a chip that
 * opens the file, as a citation does (the transcript carries the click to the host, which opens
 * only files of the workspace).
 */
export function ruleChips(rules: readonly string[], strings: WebviewStrings): HTMLElement {
  return el(
    'div',
    { className: 'reply-rules', attrs: { role: 'group', 'aria-label': strings.rulesUsedLabel } },
    el('span', { className: 'reply-rules-title', text: strings.rulesUsed }),
    ...rules.map((file) =>
      el('a', { className: 'rule-chip', attrs: { href: fileLinkHref({ file, first: 1, last: 1 }), title: file } }, icon('file'), el('span', { text: file })),
    ),
  );
}
