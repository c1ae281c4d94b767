import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { seededRandom } from '../../emulator/random';
import { TestProxy } from '../../emulator/proxy';
import { chatView, emulator, ensureKey, productLog, productWorkspaceStorage, until, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';

/**
 * Faults the extension must survive, in the real VS Code against the emulator. For each: what the
 * user sees, that the extension keeps working afterwards, and that the conversation is intact
 * (on screen, and as the history sent with the next turn).
 */

const LAST = '.turn-assistant:last-child';

interface SentMessage {
  role: string;
  content: string;
}

/** The chat requests the emulator received since its counts were last reset, oldest first. */
async function chatRequests(): Promise<{ messages: SentMessage[]; session: string }[]> {
  return (await emulator.requests()).filter((r) => r.endpoint === 'chat').map((r) => ({ messages: r.chat!.messages, session: r.headers['x-session-id'] }));
}

/** A message of the history as these tests compare it: its role and the start of its text. */
const entry = (role: string, content: string) => `${role}: ${content.slice(0, 50)}`;
/** The emulator's answer to `question`, as it starts. */
const answer = (question: string) => entry('assistant', `**Emulated answer.** You asked: "${question}"`);

/** What the last chat request carried, one `entry` per message. */
async function lastHistory(): Promise<string[]> {
  const requests = await chatRequests();
  assert.ok(requests.length > 0, 'no chat request was made');
  return requests.at(-1)!.messages.map((m) => entry(m.role, m.content));
}

const FIRST = 'First question, for the history';

const userTexts = () => chatView.textContents('.turn-user .user-text');
const errorText = async () => (await chatView.texts(`${LAST} .turn-error .error-message`))[0] ?? '';
const errorButtons = () => chatView.texts(`${LAST} .turn-error button`);

async function dropLines(): Promise<string[]> {
  return (await productLog()).split('\n').filter((line) => line.includes('Dropped a malformed message from the chat view'));
}

describe('faults survived', function () {
  this.timeout(120_000);

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
    await chatView.newChat();
    await chatView.ask(FIRST);
  });

  beforeEach(() => emulator.resetCounts());
  afterEach(() => emulator.clearFaults());

  it('a connection reset mid-stream keeps the partial reply, marked, and Retry continues the same conversation', async () => {
    await emulator.inject({ kind: 'resetMidStream', afterEvents: 3 }, { endpoint: 'chat' });
    await chatView.ask('Second question, cut off');
    await chatView.waitFor(`${LAST} .turn-error`);
    assert.match(await errorText(), /broke while the reply was arriving/);
    const partial = (await chatView.texts(`${LAST} .turn-body`))[0];
    assert.match(partial, /Emulated answer/, 'the text that arrived is still there');
    assert.equal(await chatView.count(`${LAST} .note-incomplete`), 1, 'and it says it is incomplete');
    assert.ok((await errorButtons()).includes('Retry'));
    const replies = await chatView.count('.turn-assistant');

    await chatView.click(`${LAST} [data-error-action="retry"]`);
    await chatView.waitForText(`${LAST} .turn-body`, 'You asked: "Second question, cut off"', 30_000);
    await chatView.waitForReply(replies - 1);
    assert.equal(await chatView.count('.turn-assistant'), replies, 'the retried reply took the place of the cut one');
    assert.equal(await chatView.count(`${LAST} .turn-error, ${LAST} .note-incomplete`), 0);
    assert.deepEqual(
      await lastHistory(),
      [entry('user', FIRST), answer(FIRST), entry('user', 'Second question, cut off')],
      'the partial reply is not sent as history',
    );

    await chatView.ask('Third question');
    assert.deepEqual(await lastHistory(), [
      entry('user', FIRST),
      answer(FIRST),
      entry('user', 'Second question, cut off'),
      answer('Second question, cut off'),
      entry('user', 'Third question'),
    ]);
    const sessions = new Set((await chatRequests()).map((r) => r.session));
    assert.equal(sessions.size, 1, 'every attempt belongs to the same conversation (X-Session-ID)');
  });

  it('503s are retried without a word; the error with Retry comes only once the retries run out', async () => {
    await emulator.inject({ kind: 'status', status: 503 }, { endpoint: 'chat', times: 2 });
    await chatView.ask('Busy service, first try');
    await chatView.waitForText(`${LAST} .turn-body`, 'You asked: "Busy service, first try"');
    assert.equal(await chatView.count(`${LAST} .turn-error`), 0, 'no error is shown for failures that retries fixed');
    assert.equal(await emulator.count('chat'), 3, 'two 503s, then the answer');

    await emulator.resetCounts();
    await emulator.inject({ kind: 'status', status: 500 }, { endpoint: 'chat', times: 4 });
    await chatView.ask('Broken service');
    await chatView.waitFor(`${LAST} .turn-error`);
    assert.equal(await emulator.count('chat'), 4, 'the first attempt and three retries, then the error');
    assert.match(await errorText(), /problem on its side/);
    assert.ok((await errorButtons()).includes('Retry'));

    await chatView.click(`${LAST} [data-error-action="retry"]`);
    await chatView.waitForText(`${LAST} .turn-body`, 'You asked: "Broken service"', 30_000);
    const history = await lastHistory();
    assert.deepEqual(history.slice(0, 2), [entry('user', FIRST), answer(FIRST)]);
    assert.deepEqual(history.slice(-3), [entry('user', 'Busy service, first try'), answer('Busy service, first try'), entry('user', 'Broken service')]);
  });

  const SAID = { malformedJson: /could not read/, truncatedStream: /stopped before it was complete/ };
  for (const kind of ['malformedJson', 'truncatedStream'] as const) {
    it(`${kind}: a protocol error that names no internals, and the extension keeps working with the conversation intact`, async () => {
      const before = await userTexts();
      await emulator.inject({ kind }, { endpoint: 'chat' });
      await chatView.ask(`Broken reply (${kind})`);
      await chatView.waitFor(`${LAST} .turn-error`);
      assert.match(await errorText(), SAID[kind]);
      assert.ok(!/JSON|SSE|stack|Error:/.test(await errorText()), 'the message speaks to the user, the log has the detail');
      assert.ok((await errorButtons()).includes('Retry'));

      await chatView.ask(`After the broken reply (${kind})`);
      await chatView.waitForText(`${LAST} .turn-body`, `You asked: "After the broken reply (${kind})"`);
      assert.deepEqual(await userTexts(), [...before, `Broken reply (${kind})`, `After the broken reply (${kind})`]);
      const history = await lastHistory();
      assert.deepEqual(history.slice(0, 2), [entry('user', FIRST), answer(FIRST)]);
      // The question stays; the broken reply is not sent as something the model said.
      assert.deepEqual(history.slice(-2), [entry('user', `Broken reply (${kind})`), entry('user', `After the broken reply (${kind})`)]);
    });
  }

  it('a stalled server times out with a message and Retry, and Retry then gets the answer', async () => {
    const settings = vscode.workspace.getConfiguration('gigachat');
    await settings.update('requestTimeout', 2, vscode.ConfigurationTarget.Global);
    try {
      await emulator.inject({ kind: 'stall' }, { endpoint: 'chat' });
      await chatView.ask('Are you stuck?');
      await chatView.waitFor(`${LAST} .turn-error`, 'visible', 30_000);
      assert.match(await errorText(), /did not answer in time/);
      assert.ok((await errorButtons()).includes('Retry'));
      await chatView.click(`${LAST} [data-error-action="retry"]`);
      await chatView.waitForText(`${LAST} .turn-body`, 'You asked: "Are you stuck?"', 30_000);
      assert.equal(await chatView.count(`${LAST} .turn-error`), 0);
    } finally {
      await settings.update('requestTimeout', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  for (const [name, fault] of [
    ['before any answer', { kind: 'slowFirstByte', ms: 600_000 }],
    ['in the middle of a reply', { kind: 'stall' }],
  ] as const) {
    it(`Stop works while the server stalls ${name}, and the next message works`, async () => {
      await emulator.inject(fault, { endpoint: 'chat' });
      await chatView.type(`Stall ${name}`);
      await chatView.press('Enter');
      await chatView.waitFor('.send-button.is-stop');
      await until(async () => (await emulator.count('chat')) === 1, 'the request to reach the server');
      await chatView.click('.send-button.is-stop');
      await chatView.waitFor(`${LAST} .note-stopped`);
      await chatView.waitFor('.send-button.is-stop', 'hidden');
      assert.equal(await chatView.count(`${LAST} .turn-error`), 0, 'stopping is not an error');

      await chatView.ask(`After the stall ${name}`);
      await chatView.waitForText(`${LAST} .turn-body`, `You asked: "After the stall ${name}"`);
      // What the user saw before stopping is part of the conversation; an empty stopped reply is not.
      const partial = fault.kind === 'stall' ? [entry('assistant', '**Emulated answer.** You')] : [];
      assert.deepEqual((await lastHistory()).slice(-2 - partial.length), [
        entry('user', `Stall ${name}`),
        ...partial,
        entry('user', `After the stall ${name}`),
      ]);
    });
  }

  it('the service killed during a reply and restarted: partial kept, a clear error while down, then the chat goes on with its history', async () => {
    let down = false;
    try {
      // A stalled reply, so the kill is sure to land while it is streaming.
      await emulator.inject({ kind: 'stall' }, { endpoint: 'chat' });
      const replies = await chatView.count('.turn-assistant');
      await chatView.type('Tell me everything before the crash');
      await chatView.press('Enter');
      // The new reply's text, not the previous reply's (the last one until the host has answered the Enter).
      await until(async () => (await chatView.count('.turn-assistant')) > replies, 'the reply to start');
      await chatView.waitForText(`${LAST} .turn-body`, 'Emulated answer');
      await emulator.kill();
      down = true;
      await chatView.waitFor(`${LAST} .turn-error`);
      assert.match(await errorText(), /broke while the reply was arriving/);
      assert.equal(await chatView.count(`${LAST} .note-incomplete`), 1);

      await chatView.ask('Are you back?');
      await chatView.waitFor(`${LAST} .turn-error`);
      assert.match(await errorText(), /Could not connect to GigaChat/);
      assert.ok((await errorButtons()).includes('Retry'));

      const exchanges = await emulator.count('oauth');
      await emulator.restart();
      down = false;
      await chatView.click(`${LAST} [data-error-action="retry"]`);
      await chatView.waitForText(`${LAST} .turn-body`, 'You asked: "Are you back?"', 30_000);
      assert.equal(await chatView.count(`${LAST} .turn-error`), 0);
      assert.equal((await emulator.count('oauth')) - exchanges, 1, 'the restarted service forgot the token: renewed once, silently');
      const history = await lastHistory();
      assert.deepEqual(history.slice(0, 2), [entry('user', FIRST), answer(FIRST)]);
      assert.deepEqual(history.slice(-2), [entry('user', 'Tell me everything before the crash'), entry('user', 'Are you back?')]);
      assert.deepEqual((await userTexts()).slice(-2), ['Tell me everything before the crash', 'Are you back?']);
    } finally {
      if (down) await emulator.restart();
    }
  });

  it('random and malformed messages from the webview are dropped and logged, with no effect', async () => {
    const SECRET = 'SECRET-value-7d1e';
    const random = seededRandom(4_242);
    const randomValue = (depth = 0): unknown => {
      const roll = Math.floor(random() * (depth > 1 ? 4 : 6));
      if (roll === 0) return `${SECRET}-${Math.floor(random() * 1e6)}`;
      if (roll === 1) return Math.floor(random() * 2000) - 1000;
      if (roll === 2) return null;
      if (roll === 3) return random() < 0.5;
      if (roll === 4) return [randomValue(depth + 1), randomValue(depth + 1)];
      return {
        type: ['send', 'stop!', 'openConversation', '', 'deleteConversation'][Math.floor(random() * 5)],
        conversationId: randomValue(depth + 1),
        text: randomValue(depth + 1),
      };
    };
    const hostile: unknown[] = [
      null,
      42,
      `send ${SECRET}`,
      [SECRET],
      {},
      { type: 'send' },
      { type: 'send', text: '' },
      { type: 'send', text: { nested: SECRET } },
      { type: 'send', text: `${SECRET} ${'x'.repeat(200_001)}` },
      { type: 'SEND', text: SECRET },
      { type: 'deleteConversation' },
      { type: 'deleteConversation', conversationId: 12 },
      { type: 'openConversation', conversationId: '' },
      { type: 'errorAction', action: `run ${SECRET}` },
      { type: 'selectModel', model: `${SECRET}`.repeat(20) },
      { type: 'insertCode', code: 7 },
      { type: 'openLink', href: { url: SECRET } },
      { type: 'draft', text: [SECRET] },
      ...Array.from({ length: 30 }, () => randomValue()).filter((value) => !isValidByChance(value)),
    ];
    const turnsBefore = await chatView.textContents('.turn');
    const requestsBefore = await emulator.count('chat');
    const droppedBefore = (await dropLines()).length;
    const model = vscode.workspace.getConfiguration('gigachat').get('model');
    const notifications = await workbench.notifications();

    assert.equal(await chatView.postRaw(hostile), hostile.length);
    await until(async () => (await dropLines()).length - droppedBefore >= hostile.length, `${hostile.length} "dropped" lines in the GigaChat log`, 30_000);

    const dropped = (await dropLines()).slice(droppedBefore);
    assert.equal(dropped.length, hostile.length, 'one line per message, no more');
    for (const line of dropped) {
      assert.ok(!line.includes(SECRET), `a value reached the log: ${line}`);
      assert.ok(line.length < 500, `a log line of ${line.length} characters`);
    }
    assert.ok(
      dropped.some((line) => /text: string\(2000\d\d chars\)/.test(line)),
      'the huge message is described, not copied',
    );
    assert.deepEqual(await chatView.textContents('.turn'), turnsBefore, 'the conversation on screen did not change');
    assert.equal(await emulator.count('chat'), requestsBefore, 'nothing was sent to the service');
    assert.equal(vscode.workspace.getConfiguration('gigachat').get('model'), model);
    assert.deepEqual(await workbench.notifications(), notifications, 'no error was surfaced');

    await chatView.ask('Still listening after the garbage?');
    await chatView.waitForText(`${LAST} .turn-body`, 'You asked: "Still listening after the garbage?"');
  });

  it('a history the disk refuses to save does not stop the chat: replies come, and the user is told once', async () => {
    const folder = path.join(await productWorkspaceStorage(), 'conversations');
    const told = async () => (await workbench.notifications()).filter((text) => text.includes('could not save this conversation to the chat history')).length;
    fs.renameSync(folder, `${folder}.aside`);
    fs.writeFileSync(folder, 'a file where the folder should be: every save fails');
    try {
      await chatView.ask('Does the chat go on without its history?');
      await chatView.waitForText(`${LAST} .turn-body`, 'You asked: "Does the chat go on without its history?"');
      await chatView.ask('And the next question?');
      await chatView.waitForText(`${LAST} .turn-body`, 'You asked: "And the next question?"');
      await until(async () => (await productLog()).includes('Could not save the conversation to the history'), 'the reason in the log');
      // Counted in the notification list, which holds toasts that have gone as well.
      await vscode.commands.executeCommand('notifications.showList');
      await until(async () => (await told()) >= 1, 'a warning that the history is not saved');
      assert.equal(await told(), 1, 'told once, not at every save');
    } finally {
      fs.rmSync(folder, { force: true });
      fs.renameSync(`${folder}.aside`, folder);
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.commands.executeCommand('notifications.hideList');
    }
  });

  describe('through a proxy set in http.proxy', () => {
    const USER = 'corp-user';
    const PASSWORD = 'Pr0xy-p@ss:word';
    let proxy: TestProxy;
    const http = () => vscode.workspace.getConfiguration('http');

    before(async () => {
      proxy = await TestProxy.start({ credentials: { username: USER, password: PASSWORD } });
    });
    afterEach(() => http().update('proxy', undefined, vscode.ConfigurationTarget.Global));
    after(() => proxy?.stop());

    it('a chat goes through the proxy, authenticated with the credentials in the URL', async () => {
      await http().update('proxy', proxy.urlWith(USER, PASSWORD), vscode.ConfigurationTarget.Global);
      const { baseUrl } = await emulator.info();
      await chatView.ask('Hello through the proxy');
      await chatView.waitForText(`${LAST} .turn-body`, 'You asked: "Hello through the proxy"');
      assert.ok(proxy.tunnels.includes(new URL(baseUrl).host), `tunnels: ${proxy.tunnels.join(', ')}`);
    });

    it('a wrong proxy password says the proxy refused the credentials, and its button opens the proxy setting', async () => {
      await http().update('proxy', proxy.urlWith(USER, 'not-the-password'), vscode.ConfigurationTarget.Global);
      await chatView.ask('Wrong proxy password');
      await chatView.waitFor(`${LAST} .turn-error`);
      const text = await errorText();
      assert.match(text, new RegExp(`The proxy ${proxy.url.replace(/[.:/]/g, '\\$&')} refused the credentials set in http\\.proxy`));
      assert.ok(!text.includes('not-the-password') && !text.includes(USER), 'the credentials are not repeated');
      await chatView.click(`${LAST} [data-error-action="proxySettings"]`);
      await until(() => vscode.window.tabGroups.activeTabGroup.activeTab?.label === 'Settings', 'the Settings editor');
      // Only the settings that fix it, not every setting of the extension.
      let labels: string[] = [];
      await until(async () => (labels = await workbench.texts('.settings-editor .setting-item-label')).length > 0, 'the proxy settings listed');
      assert.deepEqual([...labels].sort(), ['No Proxy', 'Proxy'], `settings shown: ${labels.join(', ')}`);
      await workbench.screenshot('proxy-settings-from-error');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      assert.ok(!(await productLog()).includes('not-the-password'), 'nor logged');
    });

    it('a proxy password with a bare % is named as a proxy setting problem, with the way to write it', async () => {
      await http().update('proxy', `http://${USER}:50%off@${new URL(proxy.url).host}`, vscode.ConfigurationTarget.Global);
      await chatView.ask('Percent in the proxy password');
      await chatView.waitFor(`${LAST} .turn-error`);
      const text = await errorText();
      assert.match(text, /proxy set in http\.proxy holds a % that is not followed by two hexadecimal digits/);
      assert.match(text, /write % as %25/);
      assert.ok(!text.includes('50%off'), 'the password is not repeated');
      assert.equal(await chatView.count(`${LAST} [data-error-action="proxySettings"]`), 1, 'a button opens the proxy setting');
    });

    it('a proxy that is down is named in the error, and the chat works again once the setting is cleared', async () => {
      const stopped = await TestProxy.start();
      const address = stopped.url;
      await stopped.stop();
      await http().update('proxy', address, vscode.ConfigurationTarget.Global);
      await chatView.ask('Proxy down');
      await chatView.waitFor(`${LAST} .turn-error`);
      assert.match(await errorText(), new RegExp(`Could not connect to the proxy ${address.replace(/[.:/]/g, '\\$&')}`));
      // Check connection runs the check, whose report opens rendered beside what failed.
      await chatView.click(`${LAST} [data-error-action="checkConnection"]`);
      await until(
        () => vscode.window.tabGroups.activeTabGroup.activeTab?.label.includes('GigaChat connection check') === true,
        'the connection report',
        30_000,
      );
      assert.ok(vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputWebview, 'the report opens in the Markdown preview');
      await until(
        async () => (await workbench.notifications()).some((text) => text.includes('connection check failed at')),
        'the check names the step that failed',
      );
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.commands.executeCommand('notifications.clearAll');
      await http().update('proxy', undefined, vscode.ConfigurationTarget.Global);
      await chatView.click(`${LAST} [data-error-action="retry"]`);
      await chatView.waitForText(`${LAST} .turn-body`, 'You asked: "Proxy down"', 30_000);
      assert.ok(!(await productLog()).includes(PASSWORD), 'the proxy password of the earlier test is in no log line');
    });
  });
});

/** A random value that happens to be a valid message (e.g. {type: 'send', text: 'x'}) is not hostile. */
function isValidByChance(value: unknown): boolean {
  const message = value as { type?: unknown; text?: unknown; conversationId?: unknown } | null;
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  if (message.type === 'send') return typeof message.text === 'string' && message.text.length > 0;
  if (message.type === 'openConversation' || message.type === 'deleteConversation')
    return typeof message.conversationId === 'string' && message.conversationId.length > 0;
  return false;
}
