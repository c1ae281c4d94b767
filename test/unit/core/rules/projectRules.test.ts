import * as assert from 'node:assert/strict';
import { fitRules, readProjectRules, type RuleAccess } from '../../../../src/core/rules/projectRules';
import { frontMatter, globPattern, selectRules } from '../../../../src/core/rules/ruleSelection';
import { commitMessagePrompt } from '../../../../src/core/scm/commitPrompt';
import { commitStyle } from '../../../../src/core/scm/commitStyle';
import { reviewPrompt } from '../../../../src/core/scm/reviewPrompt';

/** A folder of rule files as the workspace port would give them: `refused` ones read as absent. */
function folder(files: Record<string, string>, options: { trusted?: boolean; refused?: string[] } = {}): RuleAccess & { reads: string[] } {
  const reads: string[] = [];
  return {
    trusted: options.trusted ?? true,
    reads,
    read: async (path) => {
      reads.push(path);
      return options.refused?.includes(path) ? undefined : files[path];
    },
    list: async (dir) =>
      Object.keys(files)
        .filter((path) => path.startsWith(`${dir}/`) && !path.slice(dir.length + 1).includes('/'))
        .map((path) => path.slice(dir.length + 1)),
  };
}

const paths = (rules: { path: string }[]) => rules.map((rule) => rule.path);

describe('project rules: which files apply to which target', () => {
  const files = {
    'AGENTS.md': 'Root rule.',
    'src/AGENTS.md': 'Src rule.',
    'src/api/AGENTS.md': 'Api rule.',
    'docs/AGENTS.md': 'Docs rule.',
    '.github/copilot-instructions.md': 'Copilot rule.',
    '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts,**/*.tsx"\n---\nTypeScript rule.',
    '.github/instructions/py.instructions.md': "---\napplyTo: '*.py'\n---\nPython rule.",
    '.github/instructions/manual.instructions.md': 'Only when attached by hand.',
    '.github/instructions/notes.md': 'Not an instructions file.',
    'GIGACODE.md': 'GigaCode rule.',
    '.gigachat/rules/commits.md': 'Commit rule.',
    '.gigachat/rules/tests.md': '---\napplyTo: test/**\n---\nTest rule.',
  };

  it('takes the root AGENTS.md and the nearest one above the file, not those of other folders', async () => {
    const rules = await readProjectRules(folder(files), ['src/api/client.ts']);
    assert.deepEqual(paths(rules), [
      '.gigachat/rules/commits.md',
      'GIGACODE.md',
      '.github/instructions/ts.instructions.md',
      'src/api/AGENTS.md',
      'AGENTS.md',
      '.github/copilot-instructions.md',
    ]);
    assert.ok(!paths(rules).includes('src/AGENTS.md'), 'a farther one gives way to the nearest');
    assert.equal(rules.find((rule) => rule.path === '.github/instructions/ts.instructions.md')?.body, 'TypeScript rule.', 'the front matter taken off');
  });

  it('matches applyTo globs against each file in question; an instructions file without applyTo is never applied by itself', async () => {
    const rules = paths(await readProjectRules(folder(files), ['tools/build.py', 'test/unit/a.test.js']));
    assert.ok(rules.includes('.github/instructions/py.instructions.md'), 'a glob with no slash matches at any depth');
    assert.ok(rules.includes('.gigachat/rules/tests.md'));
    assert.ok(!rules.includes('.github/instructions/ts.instructions.md'));
    assert.ok(!rules.includes('.github/instructions/manual.instructions.md'));
    assert.ok(!rules.includes('.github/instructions/notes.md'));
  });

  it('with no file in question, applies the project-wide rules only', async () => {
    const rules = paths(await readProjectRules(folder(files), []));
    assert.deepEqual(rules, ['.gigachat/rules/commits.md', 'GIGACODE.md', 'AGENTS.md', '.github/copilot-instructions.md']);
  });

  it('reads nothing in Restricted Mode', async () => {
    const access = folder(files, { trusted: false });
    assert.deepEqual(await readProjectRules(access, ['src/api/client.ts']), []);
    assert.deepEqual(access.reads, []);
  });

  it('leaves out a file the workspace port refuses (a link, a secret, ignored by git) and empty ones', async () => {
    const rules = paths(await readProjectRules(folder({ ...files, 'src/AGENTS.md': '   \n' }, { refused: ['src/api/AGENTS.md'] }), ['src/api/client.ts']));
    assert.ok(!rules.includes('src/api/AGENTS.md'));
    assert.ok(!rules.includes('src/AGENTS.md'), 'an empty file says nothing');
    assert.ok(rules.includes('AGENTS.md'));
  });

  it('reads applyTo globs as VS Code does', () => {
    assert.ok(globPattern('**/*.ts').test('a/b/c.ts'));
    assert.ok(globPattern('**/*.ts').test('c.ts'));
    assert.ok(globPattern('src/**').test('src/a/b.ts'));
    assert.ok(!globPattern('src/*.ts').test('src/a/b.ts'));
    assert.ok(globPattern('**/*.{ts,tsx}').test('ui/view.tsx'));
    assert.ok(!globPattern('*.ts').test('a.tsx'));
    assert.ok(globPattern('**').test('anything/at/all'));
    assert.ok(!globPattern('a.b').test('aXb'), 'a dot is a dot');
    assert.deepEqual(frontMatter('---\napplyTo: "**/*.{ts,tsx}, docs/**"\n---\nBody').applyTo, ['**/*.{ts,tsx}', 'docs/**']);
    assert.deepEqual(frontMatter('No front matter'), { body: 'No front matter' });
  });
});

describe('project rules within a budget', () => {
  const rule = (path: string, words: number) => ({ path, kind: 'rootAgents' as const, body: 'word '.repeat(words).trim() });

  it('keeps every rule that fits, naming each file', () => {
    const fitted = fitRules([rule('GIGACODE.md', 5), rule('AGENTS.md', 5)], 1_000);
    assert.deepEqual(paths(fitted.used), ['GIGACODE.md', 'AGENTS.md']);
    assert.match(fitted.text, /## GIGACODE\.md\nword/);
    assert.match(fitted.text, /## AGENTS\.md\nword/);
  });

  it('cuts the rule that fills the room and leaves out the least important ones, saying so', () => {
    const fitted = fitRules([rule('GIGACODE.md', 200), rule('AGENTS.md', 2_000), rule('.github/copilot-instructions.md', 200)], 1_000);
    assert.deepEqual(paths(fitted.used), ['GIGACODE.md', 'AGENTS.md']);
    assert.match(fitted.text, /the rest of this file is left out for lack of room/);
    assert.ok(fitted.text.length / 3 <= 1_000 * 1.5, 'within the budget, give or take the estimate');
  });

  it('says nothing when there are no rules or no room', () => {
    assert.deepEqual(fitRules([], 1_000), { text: '', used: [] });
    assert.deepEqual(fitRules([rule('AGENTS.md', 500)], 50), { text: '', used: [] });
  });

  it('selects from files given directly, the same way', () => {
    assert.deepEqual(paths(selectRules([{ path: 'AGENTS.md', text: 'x' }], [])), ['AGENTS.md']);
  });
});

describe('project rules in the Source Control prompts', () => {
  const rules = "The project's rules:\n\n## AGENTS.md\nCommit subjects start with an emoji.";

  it("the commit message's instructions carry them before the user's own", () => {
    const request = {
      digest: 'diff',
      style: commitStyle([]),
      language: 'en' as const,
      fallbackLanguage: 'en' as const,
      instructions: 'Be terse.',
      rules,
      scope: 'staged' as const,
    };
    const system = commitMessagePrompt(request)[0]
      .parts.map((part) => (part.kind === 'text' ? part.text : ''))
      .join('');
    assert.ok(system.includes('Commit subjects start with an emoji.'));
    assert.ok(system.indexOf('emoji') < system.indexOf('Be terse.'), "the user's instructions have the last word");
    const without = commitMessagePrompt({ ...request, rules: undefined })[0]
      .parts.map((part) => (part.kind === 'text' ? part.text : ''))
      .join('');
    assert.ok(!without.includes('rules below'));
  });

  it("the review's instructions carry them, and they take their room from the change's", () => {
    const file = { path: 'a.ts', status: 'modified' as const, binary: false, added: 1, removed: 0, hunks: [] };
    const prompt = reviewPrompt([file], { budgetTokens: 10_000, language: 'English', rules });
    assert.match(prompt.system, /breaks one of the project's rules[\s\S]*start with an emoji/);
    assert.doesNotMatch(reviewPrompt([file], { budgetTokens: 10_000, language: 'English' }).system, /project's rules/);
  });
});
