import * as assert from 'node:assert/strict';
import { VsCodeSettings } from '../../../../src/host/settings/vscodeSettings';
import type { SettingsChange } from '../../../../src/host/settings/settingsReader';
import { ConfigurationTarget, standIn } from '../../support/vscodeStandIn';

/** The settings as features read them: fresh at each read, within bounds, changes told with what they call for. */
describe('VsCodeSettings', () => {
  let settings: VsCodeSettings;
  beforeEach(() => {
    standIn.reset();
    settings = new VsCodeSettings();
  });
  afterEach(() => settings.dispose());

  it("answers with package.json's defaults when the user set nothing", () => {
    assert.equal(settings.get('model'), 'GigaChat');
    assert.equal(settings.get('scope'), 'GIGACHAT_API_PERS');
    assert.equal(settings.settings().requestTimeout, 90);
  });

  it('sees a changed setting at the next read, without being built again', () => {
    const before = settings.settings();
    standIn.settings.set('gigachat.model', 'GigaChat-2-Max');
    standIn.settings.set('gigachat.scope', 'GIGACHAT_API_CORP', ConfigurationTarget.Workspace);
    assert.equal(settings.get('model'), 'GigaChat-2-Max');
    assert.equal(settings.settings().scope, 'GIGACHAT_API_CORP');
    assert.equal(before.model, 'GigaChat', 'what was read before keeps its value');
  });

  it('leaves an unset temperature, token limit and reasoning effort to the model', () => {
    const { temperature, maxTokens, reasoningEffort } = settings.settings();
    assert.deepEqual({ temperature, maxTokens, reasoningEffort }, { temperature: undefined, maxTokens: undefined, reasoningEffort: undefined });
    standIn.settings.set('gigachat.temperature', 0.3);
    standIn.settings.set('gigachat.reasoningEffort', 'high');
    assert.equal(settings.settings().temperature, 0.3);
    assert.equal(settings.settings().reasoningEffort, 'high');
  });

  describe('numbers a settings.json may hold anything in', () => {
    const cases: [value: unknown, expected: number][] = [
      [100_000, 600],
      [-5, 1],
      [0, 1],
      [2.6, 3],
      ['30', 90],
      [null, 90],
      [Number.NaN, 90],
    ];
    for (const [value, expected] of cases) {
      it(`reads requestTimeout ${typeof value === 'string' ? `"${value}"` : String(value)} as ${expected} seconds`, () => {
        standIn.settings.set('gigachat.requestTimeout', value);
        assert.equal(settings.clamped('requestTimeout'), expected);
        assert.equal(settings.settings().requestTimeout, expected);
      });
    }

    it("keeps the suggestions' pause and context within theirs", () => {
      standIn.settings.set('gigachat.completions.debounceMs', 3_600_000);
      standIn.settings.set('gigachat.completions.contextTokens', 5_000_000);
      assert.equal(settings.clamped('completions.debounceMs'), 2000);
      assert.equal(settings.clamped('completions.contextTokens'), 16384);
    });
  });

  describe('changes', () => {
    let changes: SettingsChange[];
    beforeEach(() => {
      changes = [];
      settings.onDidChange((change) => changes.push(change));
    });

    it('tells that the scope changed, and that the client must be built again', () => {
      standIn.settings.set('gigachat.scope', 'GIGACHAT_API_B2B');
      assert.equal(changes.length, 1);
      assert.ok(changes[0].affects('scope'));
      assert.ok(!changes[0].affects('model'));
      assert.ok(changes[0].callsFor('connection'));
      assert.ok(!changes[0].callsFor('searchIndexer'));
    });

    it("tells of VS Code's proxy, which the client goes through", () => {
      standIn.settings.set('http.proxy', 'http://proxy.example:3128');
      assert.equal(changes.length, 1);
      assert.ok(changes[0].callsFor('connection'));
      assert.ok(!changes[0].affects('model'));
    });

    it("tells search to work its files out again after VS Code's exclusions change, and to index anew after the embeddings model does", () => {
      standIn.settings.set('files.exclude', { '**/dist': true });
      standIn.settings.set('gigachat.embeddingsModel', 'EmbeddingsGigaR');
      assert.deepEqual(
        changes.map((change) => [change.callsFor('searchFiles'), change.callsFor('searchIndexer')]),
        [
          [true, false],
          [false, true],
        ],
      );
    });

    it('counts a suggestions setting as one of the group', () => {
      standIn.settings.set('gigachat.completions.serverUrl', 'http://localhost:11434');
      assert.ok(changes[0].affects('completions'));
      assert.ok(changes[0].affects('completions.serverUrl'));
      assert.ok(!changes[0].affects('completions.model'));
    });

    it('says nothing of a setting it does not follow', () => {
      standIn.settings.set('editor.fontSize', 18);
      assert.deepEqual(changes, []);
    });

    it('stops telling once disposed', () => {
      settings.dispose();
      standIn.settings.set('gigachat.model', 'GigaChat-2-Pro');
      assert.deepEqual(changes, []);
    });
  });

  describe('writing', () => {
    it("writes the user's settings when the workspace sets nothing", async () => {
      await settings.write('model', 'GigaChat-2-Pro');
      assert.equal(standIn.settings.inspect('gigachat.model').globalValue, 'GigaChat-2-Pro');
      assert.equal(settings.get('model'), 'GigaChat-2-Pro');
    });

    it("writes the workspace's settings when they set one, which would override the user's", async () => {
      standIn.settings.set('gigachat.model', 'GigaChat', ConfigurationTarget.Workspace);
      await settings.write('model', 'GigaChat-2-Max');
      assert.equal(standIn.settings.inspect('gigachat.model').workspaceValue, 'GigaChat-2-Max');
      assert.equal(standIn.settings.inspect('gigachat.model').globalValue, undefined);
      assert.equal(settings.get('model'), 'GigaChat-2-Max');
    });

    it("writes the user's settings when asked to, whatever the workspace sets", async () => {
      standIn.settings.set('gigachat.caCertificates', ['/repo/ca.pem'], ConfigurationTarget.Workspace);
      await settings.write('caCertificates', ['/home/me/company.pem'], 'user');
      assert.deepEqual(standIn.settings.inspect('gigachat.caCertificates').globalValue, ['/home/me/company.pem']);
      assert.deepEqual(standIn.settings.inspect('gigachat.caCertificates').workspaceValue, ['/repo/ca.pem']);
    });
  });

  describe("VS Code's proxy", () => {
    it('is left to the environment when unset', () => {
      assert.deepEqual(settings.proxy(), { url: undefined, noProxy: undefined, authorization: undefined });
    });

    it('is read trimmed, its exceptions as one list', () => {
      standIn.settings.set('http.proxy', '  http://proxy.example:3128 ');
      standIn.settings.set('http.noProxy', ['localhost', '.corp.example']);
      standIn.settings.set('http.proxyAuthorization', ' Basic dXNlcjpwYXNz ');
      assert.deepEqual(settings.proxy(), { url: 'http://proxy.example:3128', noProxy: 'localhost,.corp.example', authorization: 'Basic dXNlcjpwYXNz' });
    });
  });
});
