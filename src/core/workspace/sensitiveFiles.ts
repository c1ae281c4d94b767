import { packageJsonChange } from './packageJsonChange';

/**
 * Files whose change can run code on the user's machine (or on CI) without anyone running it by
 * hand, or change how the editor behaves: an agent's edit to one of them deserves a louder
 * confirmation than an edit to ordinary source. Judged by the file's path, and for package.json by
 * what the change touches. Pure, so it is tested under plain Node.
 *
 * Deliberately not sensitive:
 * - tsconfig*.json and jsconfig.json: they choose compiler options and files; the only code they can
 *   name (language-service plugins, `extends` packages) must already be installed, which the
 *   package.json check covers.
 * - go.mod and go.work: Go runs no code of a module when it downloads or builds it (no install
 *   scripts, cgo flags are allow-listed), and `go generate` runs only when asked; a toolchain line
 *   downloads an official, checksummed Go release.
 */

export type SensitiveKind = 'editorConfig' | 'workspaceFile' | 'ciWorkflow' | 'gitHook' | 'packageScripts' | 'buildFile' | 'script';

/** Why a file is sensitive, said to the user in the confirmation. */
export interface Sensitivity {
  kind: SensitiveKind;
  /** English sentence for the confirmation, e.g. "VS Code's settings, tasks and launch configurations can run commands." */
  reason: string;
}

/**
 * One group of paths that can run code for the same reason. A path matches when one of its folders
 * is in `folders`, its file name is in `names`, or its file name matches one of `patterns`; all in
 * lower case, since names are compared case-insensitively (Windows and macOS file systems are).
 */
interface PathGroup {
  kind: SensitiveKind;
  reason: string;
  folders?: readonly string[];
  names?: readonly string[];
  patterns?: readonly RegExp[];
}

/** VS Code reads these as the folder is opened: tasks and launch configurations run commands, and settings can name programs to run (a formatter, a linter, a terminal's shell). */
const VS_CODE_SETTINGS: PathGroup = {
  kind: 'editorConfig',
  folders: ['.vscode'],
  reason: "VS Code's settings, tasks and launch configurations can run commands, and settings can name programs for extensions to start.",
};

/** Dev Containers runs their lifecycle commands when the container is created or started, and chooses the image VS Code reopens the folder in. */
const DEV_CONTAINER: PathGroup = {
  kind: 'editorConfig',
  folders: ['.devcontainer'],
  names: ['.devcontainer.json'],
  reason: 'A dev container configuration runs commands when the container is created or started, and chooses the image the folder is reopened in.',
};

/** A workspace file holds settings, tasks and launch configurations like `.vscode` does. */
const WORKSPACE_FILE: PathGroup = {
  kind: 'workspaceFile',
  patterns: [/\.code-workspace$/],
  reason: 'A .code-workspace file holds VS Code settings, tasks and launch configurations, which can run commands.',
};

/** CI services run these steps as commands on their machines, often with the repository's secrets at hand. */
const CI_PIPELINES: PathGroup = {
  kind: 'ciWorkflow',
  folders: ['.github', '.circleci', '.buildkite', '.gitlab'],
  names: [
    '.gitlab-ci.yml',
    'azure-pipelines.yml',
    'azure-pipelines.yaml',
    'bitbucket-pipelines.yml',
    '.travis.yml',
    'appveyor.yml',
    '.appveyor.yml',
    '.drone.yml',
  ],
  patterns: [/^jenkinsfile/],
  reason: "CI pipelines run their steps as commands on the CI service's machines, where the repository's secrets are at hand.",
};

/**
 * Git runs hooks on commit, push and checkout; these tools install them from the files below. The
 * `.git` folder itself holds the hooks and settings (core.hooksPath, core.fsmonitor) git runs as commands.
 */
const GIT_HOOKS: PathGroup = {
  kind: 'gitHook',
  folders: ['.git', '.husky', '.githooks'],
  names: ['.pre-commit-config.yaml', '.pre-commit-config.yml'],
  patterns: [/^\.?lefthook(-local)?\.(ya?ml|json|toml)$/, /^\.lintstagedrc/, /^lint-staged\.config\./, /^\.huskyrc/, /^\.simple-git-hooks\./],
  reason: 'Git hooks run as commands when you commit, push or check out.',
};

/**
 * Package managers' own settings: `.npmrc` can set the shell scripts run in and options for every
 * Node.js process (`node-options`), `.yarnrc.yml`'s `yarnPath` runs a file of the repository as Yarn
 * itself, `.pnpmfile.cjs` runs on every install, `bunfig.toml` can preload scripts; all choose where packages are downloaded from.
 */
const PACKAGE_MANAGER_SETTINGS: PathGroup = {
  kind: 'packageScripts',
  folders: ['.yarn'],
  names: ['.npmrc', '.pnpmfile.cjs', '.pnpmfile.js', 'pnpm-workspace.yaml', 'bunfig.toml'],
  patterns: [/^\.yarnrc/],
  reason: 'Package manager settings can run code on every install, choose the shell scripts run in, and choose where packages are downloaded from.',
};

/** Other manifests whose scripts run on install (Composer) or as tasks (Deno). */
const OTHER_PACKAGE_MANIFESTS: PathGroup = {
  kind: 'packageScripts',
  names: ['composer.json', 'deno.json', 'deno.jsonc'],
  reason: 'Composer and Deno run the scripts and tasks this file defines, Composer some of them on every install.',
};

/** Make, CMake and gyp run the commands these files hold; npm runs node-gyp on install when binding.gyp is present. */
const MAKE_AND_CMAKE: PathGroup = {
  kind: 'buildFile',
  names: ['makefile', 'gnumakefile', 'cmakelists.txt', 'cmakepresets.json', 'cmakeuserpresets.json', 'binding.gyp'],
  patterns: [/\.mk$/, /\.cmake$/, /\.gypi?$/],
  reason: 'Make, CMake and gyp run the commands this file holds when the project is built (npm builds binding.gyp on install).',
};

/** Gradle, Maven and Ant run build code, or download the tool that does (wrappers); Java extensions import, and so build, the project as the folder opens. */
const JVM_BUILDS: PathGroup = {
  kind: 'buildFile',
  folders: ['.mvn'],
  names: ['pom.xml', 'build.xml', 'gradle.properties', 'gradle-wrapper.properties'],
  patterns: [/\.gradle(\.kts)?$/, /^gradlew/, /^mvnw/],
  reason:
    'Gradle, Maven and Ant run the code this file holds or names when the project is built, and Java extensions load the project as soon as the folder is open.',
};

/**
 * JavaScript tools run their configuration files as code (`*.config.js`, `.*rc.js`), or load the
 * plugins they name; editor extensions (ESLint, Prettier, Jest, Vitest) do so while you edit.
 */
const JAVASCRIPT_TOOL_CONFIGS: PathGroup = {
  kind: 'buildFile',
  patterns: [
    /^(gruntfile|gulpfile)\./,
    /^(webpack|vite|rollup|babel|jest|vitest)\.config\./,
    /^\.babelrc/,
    /^esbuild(\..+)?\.[cm]?[jt]s$/,
    /\.(config|conf)\.[cm]?[jt]sx?$/,
    /^\.[\w-]+rc\.[cm]?[jt]s$/,
  ],
  reason: 'JavaScript build and test tools run their configuration files as code, and editor extensions such as ESLint and Jest may do so while you edit.',
};

/** Python's packaging and test tools run these files, or the code they name (a build backend, requirements from any URL). */
const PYTHON_PROJECTS: PathGroup = {
  kind: 'buildFile',
  names: ['setup.py', 'setup.cfg', 'pyproject.toml', 'tox.ini', 'noxfile.py', 'conftest.py', 'pipfile'],
  patterns: [/^requirements.*\.(txt|in)$/],
  reason: "Python's packaging and test tools run this file, or code it names, when the project is installed or tested (test discovery runs conftest.py).",
};

/** Rake and Bundler files are Ruby code. */
const RUBY_PROJECTS: PathGroup = {
  kind: 'buildFile',
  names: ['rakefile', 'gemfile'],
  patterns: [/\.rake$/, /\.gemspec$/],
  reason: 'Rake and Bundler run this file as Ruby code.',
};

/** Cargo compiles and runs build scripts and the programs `.cargo/config.toml` names; rust-analyzer runs build scripts as the folder opens. */
const RUST_PROJECTS: PathGroup = {
  kind: 'buildFile',
  folders: ['.cargo'],
  names: ['build.rs', 'cargo.toml'],
  reason:
    'Cargo runs build scripts and the programs its configuration names when the project is built, and rust-analyzer does so as soon as the folder is open.',
};

/** Docker runs the commands of a Dockerfile as it builds, and Compose starts services with what they mount from the machine. */
const CONTAINERS: PathGroup = {
  kind: 'buildFile',
  names: ['containerfile'],
  patterns: [/^dockerfile/, /\.dockerfile$/, /^docker-compose.*\.ya?ml$/, /^compose(\..+)?\.ya?ml$/],
  reason: 'Docker runs the commands in this file when the image is built or the services are started, with what they mount from your machine.',
};

/** Task runners run the commands their files list. */
const TASK_RUNNERS: PathGroup = {
  kind: 'buildFile',
  names: ['justfile', '.justfile'],
  patterns: [/^taskfile(\.dist)?\.ya?ml$/],
  reason: 'Task runners (just, Task) run the commands this file lists.',
};

/** direnv runs `.envrc` as a shell script whenever a terminal enters the folder. */
const DIRENV: PathGroup = {
  kind: 'script',
  names: ['.envrc'],
  reason: 'direnv runs .envrc as a shell script whenever a terminal enters the folder.',
};

/** Scripts run as commands by whoever (or whatever task) starts them, wherever they are. */
const SHELL_SCRIPTS: PathGroup = {
  kind: 'script',
  patterns: [/\.(sh|bash|zsh|ksh|fish|ps1|psm1|bat|cmd|command)$/],
  reason: 'Scripts run as commands, with your permissions, when you or a task start them.',
};

/** First match wins: a script under `.github` is a CI file, a shell file under `.husky` a git hook. */
const PATH_GROUPS: readonly PathGroup[] = [
  VS_CODE_SETTINGS,
  DEV_CONTAINER,
  WORKSPACE_FILE,
  CI_PIPELINES,
  GIT_HOOKS,
  PACKAGE_MANAGER_SETTINGS,
  OTHER_PACKAGE_MANIFESTS,
  MAKE_AND_CMAKE,
  JVM_BUILDS,
  JAVASCRIPT_TOOL_CONFIGS,
  PYTHON_PROJECTS,
  RUBY_PROJECTS,
  RUST_PROJECTS,
  CONTAINERS,
  TASK_RUNNERS,
  DIRENV,
  SHELL_SCRIPTS,
];

/**
 * Whether changing a file can run code or change the editor's behaviour, and why.
 * @param path relative to the workspace folder, '/'-separated, as on disk
 * @param before the file's text before the change (undefined for a new file)
 * @param after the file's text after the change
 */
export function sensitivity(path: string, before: string | undefined, after: string): Sensitivity | undefined {
  const segments = pathSegments(path);
  const name = segments.at(-1) ?? '';
  const folders = segments.slice(0, -1);
  // Checked before the path groups: a package.json is sensitive only for what its change touches.
  if (name === 'package.json') {
    const reason = packageJsonChange(before, after);
    return reason === undefined ? undefined : { kind: 'packageScripts', reason };
  }
  const group = PATH_GROUPS.find(
    (candidate) =>
      candidate.folders?.some((folder) => folders.includes(folder)) ||
      candidate.names?.includes(name) ||
      candidate.patterns?.some((pattern) => pattern.test(name)),
  );
  return group && { kind: group.kind, reason: group.reason };
}

/**
 * The path's names in lower case. Backslashes separate too, and trailing dots and spaces go, as
 * Windows drops them (`Makefile.` is the Makefile there), so neither hides a name from the lists.
 */
function pathSegments(path: string): string[] {
  return path
    .toLowerCase()
    .split(/[/\\]/)
    .map((segment) => segment.replace(/[. ]+$/, (trailing) => (trailing === segment ? trailing : '')))
    .filter((segment) => segment !== '' && segment !== '.');
}
