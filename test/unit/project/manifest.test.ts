import * as assert from 'node:assert/strict';
import { repoRoot } from '../support/repoRoot';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CHAT_VIEW_ID } from '../../../src/host/chat/chatViewId';
import { MODEL_VENDOR, OWN_TOOLS, PARTICIPANT_COMMANDS, PARTICIPANT_ID } from '../../../src/host/chatNames';
import { COMMAND_NAMES, commandId } from '../../../src/host/commands';
import { SETTING_KEYS } from '../../../src/host/settings/settingKeys';
import { settingId, type SettingKey } from '../../../src/shared/settings';

interface Manifest {
  contributes: {
    commands: { command: string }[];
    keybindings: { command: string }[];
    menus: Record<string, { command?: string; submenu?: string }[]>;
    submenus: { id: string }[];
    views: Record<string, { id: string }[]>;
    configuration: { properties: Record<string, { default?: unknown }> }[];
    chatParticipants: { id: string; name: string; commands: { name: string }[] }[];
    languageModelTools: { name: string }[];
    languageModelChatProviders: { vendor: string; managementCommand?: string }[];
  };
}

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;
const sorted = (values: Iterable<string>) => [...values].sort();

/** package.json is data the code depends on: each command and setting it contributes is one the code registers or reads, and the reverse. */
describe('package.json and the code agree', () => {
  const contributed = manifest.contributes.commands.map((command) => command.command);

  it('contributes every command the extension registers, and registers every command it contributes', () => {
    assert.deepEqual(sorted(contributed), sorted(COMMAND_NAMES.map(commandId)));
  });

  it('names only contributed commands and submenus in its menus and keybindings', () => {
    const items = [...manifest.contributes.keybindings, ...Object.values(manifest.contributes.menus).flat()];
    const referenced = items.flatMap((item) => (item.command ? [item.command] : []));
    assert.ok(referenced.length > 0, 'no menu or keybinding was found where the test looks');
    assert.deepEqual(
      referenced.filter((id) => !contributed.includes(id)),
      [],
    );
    const submenus = manifest.contributes.submenus.map((submenu) => submenu.id);
    const nested = Object.values(manifest.contributes.menus)
      .flat()
      .flatMap((item) => (item.submenu ? [item.submenu] : []));
    assert.deepEqual(
      nested.filter((id) => !submenus.includes(id) || !manifest.contributes.menus[id]?.length),
      [],
      'each submenu is declared and holds items',
    );
  });

  it('contributes every setting the extension reads, each with a default, and reads every setting it contributes', () => {
    const properties = Object.assign({}, ...manifest.contributes.configuration.map((category) => category.properties)) as Record<string, { default?: unknown }>;
    assert.deepEqual(sorted(Object.keys(properties)), sorted(SETTING_KEYS.map(settingId)));
    // The code asks for no default of its own: without one in package.json it would get undefined.
    assert.deepEqual(
      Object.keys(properties).filter((id) => !('default' in properties[id])),
      [],
    );
  });

  it('lets no workspace choose where code and the key go: the addresses and the completion server are user settings only', () => {
    // A category list or one object: either way, every setting's declaration.
    const configuration = manifest.contributes.configuration as unknown as
      { properties: Record<string, { scope?: string }> } | { properties: Record<string, { scope?: string }> }[];
    const properties = Object.assign({}, ...[configuration].flat().map((category) => category.properties)) as Record<string, { scope?: string }>;
    const where: SettingKey[] = [
      'authUrl',
      'baseUrl',
      'caCertificates',
      'completions.provider',
      'completions.serverUrl',
      'completions.serverModel',
      'completions.fimTemplate',
    ];
    assert.deepEqual(
      where.map(settingId).filter((id) => properties[id]?.scope !== 'application'),
      [],
      "a repository's .vscode/settings.json could otherwise send the user's code or key to its own server",
    );
  });

  it('ignores what an untrusted folder sets for the addresses, the prompts, the model and what a request may cost', () => {
    const untrusted = (manifest as unknown as { capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } } }).capabilities
      .untrustedWorkspaces;
    const restricted: SettingKey[] = [
      'authUrl',
      'baseUrl',
      'caCertificates',
      // Text sent with every request: a repository's own could steer the answers.
      'systemPrompt',
      'commitMessageInstructions',
      // What a request costs and how it behaves.
      'scope',
      'model',
      'maxTokens',
      'reasoningEffort',
      'modelTokenLimits',
    ];
    assert.deepEqual(sorted(untrusted.restrictedConfigurations), sorted(restricted.map(settingId)));
  });

  it('contributes the chat view the extension provides', () => {
    assert.deepEqual(
      Object.values(manifest.contributes.views)
        .flat()
        .map((view) => view.id),
      [CHAT_VIEW_ID],
    );
  });

  it("names @gigachat, its commands, its tools and the models' vendor as the code does", () => {
    const { chatParticipants, languageModelTools, languageModelChatProviders } = manifest.contributes;
    assert.deepEqual(
      chatParticipants.map((participant) => [participant.id, participant.name]),
      [[PARTICIPANT_ID, PARTICIPANT_ID]],
    );
    assert.deepEqual(sorted(chatParticipants[0].commands.map((command) => command.name)), sorted(PARTICIPANT_COMMANDS));
    assert.deepEqual(sorted(languageModelTools.map((tool) => tool.name)), sorted(Object.values(OWN_TOOLS)));
    assert.deepEqual(
      languageModelChatProviders.map((provider) => provider.vendor),
      [MODEL_VENDOR],
    );
    assert.ok(contributed.includes(languageModelChatProviders[0].managementCommand ?? ''), "the models' Manage command is one the extension contributes");
  });
});
