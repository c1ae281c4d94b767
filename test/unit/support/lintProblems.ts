import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot as root } from './repoRoot';

export interface LintMessage {
  ruleId: string | null;
  message: string;
}

/**
 * The messages of the project's rules in `rulesFile` (a module of test/lint/ exporting `exportName`)
 * for `code` as if it were the file `file`, without type information: the rules planted tests check
 * are syntax rules.
 */
export async function lintProblems(rulesFile: string, exportName: string, file: string, code: string): Promise<LintMessage[]> {
  const { ESLint } = (await import('eslint')) as typeof import('eslint');
  const rules = ((await import(pathToFileURL(path.join(root, 'test/lint', rulesFile)).href)) as Record<string, object[]>)[exportName];
  const tseslint = (await import('typescript-eslint')).default;
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...rules],
  });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map(({ ruleId, message }) => ({ ruleId, message }));
}
