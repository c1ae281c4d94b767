import { estimateTokens } from '../service/tokenCounter';
import { fitItems } from '../prompt/shrinking';
import { fixedRulePaths, RULE_FOLDERS, selectRules, type ProjectRule, type RuleFile } from './ruleSelection';

/** One workspace folder's rule files as the host reaches them (through the workspace port; tests pass a fake). */
export interface RuleAccess {
  /** Whether the folder is trusted: in Restricted Mode the workspace's files never steer the model. */
  trusted: boolean;
  /** The file's text, or undefined when it is absent or may not be read (a link, a secret, ignored by git, outside the folder). */
  read(path: string): Promise<string | undefined>;
  /** The names of the files in a folder ([] when there is none). */
  list(folder: string): Promise<string[]>;
}

/** The rules that apply to `targets` (files relative to the folder), most important first; none in Restricted Mode. */
export async function readProjectRules(access: RuleAccess, targets: readonly string[]): Promise<ProjectRule[]> {
  if (!access.trusted) return [];
  const paths = fixedRulePaths(targets);
  for (const { folder, isRule } of RULE_FOLDERS) {
    const names = await access.list(folder).catch(() => []);
    paths.push(...names.filter(isRule).map((name) => `${folder}/${name}`));
  }
  const files: RuleFile[] = [];
  for (const path of paths) {
    const text = await access.read(path).catch(() => undefined);
    if (text !== undefined) files.push({ path, text });
  }
  return selectRules(files, targets);
}

/** The rules as the model reads them, and which were used (cut ones included), in the order given. */
export interface FittedRules {
  /** Empty when no rule is used. */
  text: string;
  used: ProjectRule[];
}

/** Below this, a rule is left out rather than cut to a stub. */
const SMALLEST_CUT_TOKENS = 100;

/**
 * The rules within `budgetTokens`: whole while they fit, most important first, then the one that
 * fills what is left cut short (saying so); the least important ones give way (the prompt
 * layer's fitItems).
 */
export function fitRules(rules: readonly ProjectRule[], budgetTokens: number): FittedRules {
  const intro = "The project's rules, from its files (follow them where they apply to the task):";
  const sections = rules.map((rule) => ({ rule, text: `## ${rule.path}\n${rule.body}` }));
  const fitted = fitItems(sections, budgetTokens - estimateTokens(intro), {
    textOf: (section) => section.text,
    measure: estimateTokens,
    cut: (section, room) => {
      if (room < SMALLEST_CUT_TOKENS) return undefined;
      const marker = '\n[…the rest of this file is left out for lack of room]';
      const characters = Math.max(0, section.text.length * ((room - estimateTokens(marker)) / (estimateTokens(section.text) + 1)));
      return { ...section, text: `${section.text.slice(0, Math.floor(characters))}${marker}` };
    },
  });
  if (fitted.kept.length === 0) return { text: '', used: [] };
  return { text: [intro, fitted.text].join('\n\n'), used: fitted.kept.map((section) => section.rule) };
}
