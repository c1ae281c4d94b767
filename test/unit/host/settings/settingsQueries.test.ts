import * as assert from 'node:assert/strict';
import { repoRoot } from '../../support/repoRoot';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SETTINGS_SHOWN, settingsQuery } from '../../../../src/host/settings/settingsQueries';

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, unknown> }[] };
};
const contributed = manifest.contributes.configuration.flatMap((category) => Object.keys(category.properties));

/** An error's settings button opens the settings that fix its cause, and only those. */
describe('the settings an error button opens', () => {
  it('a proxy or network error opens VS Code’s proxy settings, by id', () => {
    assert.equal(settingsQuery('proxySettings'), '@id:http.proxy,http.noProxy');
  });

  it('a certificate error opens the trusted certificates setting, an address error the two addresses', () => {
    assert.equal(settingsQuery('certificateSettings'), '@id:gigachat.caCertificates');
    assert.equal(settingsQuery('addressSettings'), '@id:gigachat.authUrl,gigachat.baseUrl');
    assert.equal(settingsQuery('scopeSettings'), '@id:gigachat.scope');
    assert.equal(settingsQuery('modelSettings'), '@id:gigachat.model');
  });

  it('names only settings the extension contributes (besides VS Code’s http.*)', () => {
    const named = Object.values(SETTINGS_SHOWN).flat();
    assert.deepEqual(
      named.filter((id) => !id.startsWith('http.') && !contributed.includes(id)),
      [],
    );
  });

  it('Open settings shows every setting of the extension', () => {
    assert.equal(settingsQuery('openSettings'), '@ext:gigachat-vscode.gigachat');
  });
});
