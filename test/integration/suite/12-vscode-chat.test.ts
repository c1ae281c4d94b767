import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { chatView, emulator, ensureKey, openChat, screenshotInBothThemes, until, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';
import { answerContaining, askInChatView, chatRequests, SESSION } from '../vscodeChat';

/** The folder this suite writes to (deleted at the end: semantic search counts the workspace's files). */
const FOLDER = 'vscode-chat';

const folderUri = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, FOLDER);
const fileUri = (name: string) => vscode.Uri.joinPath(folderUri(), name);
const writeText = (name: string, text: string) => vscode.workspace.fs.writeFile(fileUri(name), new TextEncoder().encode(text));

describe("VS Code's Chat: GigaChat's models, @gigachat and its tools", function () {
  this.timeout(90_000);

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
    await vscode.workspace.fs.createDirectory(folderUri());
    // The test profile hides VS Code's Chat, as a user who turned AI features off would; this suite turns it on.
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    await until(async () => (await vscode.lm.selectChatModels({ vendor: 'gigachat' })).length > 0, "GigaChat's models in VS Code", 30_000);
    // VS Code's Chat sends the active editor's selection with a question on its own: the suite starts
    // with no editor and no notification left by earlier suites, so each question says all it means.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  after(async function () {
    if (!hasOuterRunner()) return;
    await vscode.commands.executeCommand('workbench.action.chat.cancel').then(undefined, () => undefined);
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', true, vscode.ConfigurationTarget.Global);
    await vscode.workspace.fs.delete(folderUri(), { recursive: true });
  });

  it("lists the account's chat models with their limits and abilities", async () => {
    const models = await vscode.lm.selectChatModels({ vendor: 'gigachat' });
    const byId = new Map(models.map((model) => [model.id, model]));
    assert.deepEqual([...byId.keys()].sort(), [
      'GigaChat',
      'GigaChat-2',
      'GigaChat-2-Max',
      'GigaChat-2-Max-preview',
      'GigaChat-2-Pro',
      'GigaChat-2-Reasoning',
      'GigaChat-3-Ultra',
    ]);
    assert.equal(byId.get('GigaChat-2-Max')?.name, 'GigaChat 2 Max');
    assert.equal(byId.get('GigaChat-3-Ultra')?.maxInputTokens, 131_072);
    assert.equal(byId.get('GigaChat-2-Max')?.maxInputTokens, 131_072);
    assert.equal(byId.get('GigaChat')?.maxInputTokens, 32_768);
  });

  it('@gigachat answers in the Chat view, streamed, with the model chosen in the picker', async () => {
    await emulator.resetCounts();
    await askInChatView('@gigachat hello from VS Code');
    const answer = await answerContaining('You asked: "hello from VS Code"');
    assert.match(answer, /Emulated answer/);
    const [request] = await chatRequests();
    assert.equal(request.stream, true);
    assert.ok(
      request.functions?.some((fn) => fn.name === 'gigachat_readFile'),
      'the agent offers its tools',
    );
    await screenshotInBothThemes('vscode-chat-answer', workbench.screenshot);
  });

  it('runs a tool the model asks for through VS Code, and answers with its result', async () => {
    await writeText('otters.md', 'Otters hold hands while they sleep.\n');
    await emulator.resetCounts();
    await askInChatView(`@gigachat [call gigachat_readFile {"path":"${FOLDER}/otters.md"}] what do otters do?`);
    const answer = await answerContaining('hold hands');
    assert.match(answer, /gigachat_readFile/);
    const requests = await chatRequests();
    assert.equal(requests.length, 2, 'one request that asked for the tool, one with its result');
    const result = requests[1].messages.find((message) => message.role === 'function');
    assert.equal(result?.name, 'gigachat_readFile');
    assert.match(result?.content ?? '', /Otters hold hands/);
    await workbench.screenshot('vscode-chat-tool-loop');
  });

  it("offers the tools of an MCP server the user started, and runs one after VS Code's confirmation", async () => {
    const settingsFolder = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.vscode');
    const mcpJson = vscode.Uri.joinPath(settingsFolder, 'mcp.json');
    // The server this repository keeps for the test (copied into the test extension by test/harness/build.js), run by the extension host's own Node.
    const server = path.resolve(__dirname, '../mcp/ottersServer.js');
    const servers = { servers: { otters: { type: 'stdio', command: process.execPath, args: [server] } } };
    await vscode.workspace.fs.writeFile(mcpJson, new TextEncoder().encode(JSON.stringify(servers)));
    const otterTool = () => vscode.lm.tools.find((tool) => tool.tags.includes('mcp') && tool.name.endsWith('otter_fact'));
    try {
      // The user starts it from mcp.json and trusts it; VS Code reads the new file on its own time.
      let started: unknown = 'not yet';
      await until(
        async () => {
          started = await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { autoTrustChanges: true, waitForLiveTools: true }).then(
            (result) => `ok ${JSON.stringify(result)}`,
            (error: Error) => `failed ${error.message}`,
          );
          return otterTool() !== undefined;
        },
        "the MCP server's tool in VS Code",
        45_000,
      ).catch((error: Error) => {
        // Why, for whoever reads the failure: whether the start ran, what VS Code read of mcp.json, which MCP tools it has.
        const mcpTools = vscode.lm.tools.filter((tool) => tool.tags.includes('mcp')).map((tool) => tool.name);
        const servers = JSON.stringify(vscode.workspace.getConfiguration('mcp').get('servers'));
        throw new Error(`${error.message}; start: ${String(started)}; servers: ${servers}; MCP tools: ${mcpTools.join(', ') || 'none'}`);
      });
      const functionName = otterTool()!.name.replace(/[^A-Za-z0-9_]/g, '_');
      await emulator.resetCounts();
      await askInChatView(`@gigachat [call ${functionName} {"topic":"stones"}] what do otters keep?`);
      // VS Code asks before an MCP server's tool runs (Allow / Skip in the Chat view); the user allows it.
      await until(async () => /\bAllow\b/.test((await workbench.texts(SESSION)).join(' ')), "VS Code's confirmation of the MCP tool", 45_000);
      await workbench.screenshot('vscode-chat-mcp-confirmation');
      await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
      await answerContaining('favourite stone');

      const requests = await chatRequests();
      assert.ok(
        requests[0].functions?.some((fn) => fn.name === functionName),
        'the MCP tool was offered to the model',
      );
      const result = requests.at(-1)!.messages.find((message) => message.role === 'function');
      assert.equal(result?.name, functionName);
      assert.match(result?.content ?? '', /otter-fact-7: about stones/, "the server's answer went back to the model");
    } finally {
      await vscode.commands.executeCommand('workbench.mcp.stopServer', 'otters').then(undefined, () => undefined);
      const created = (await vscode.workspace.fs.readDirectory(settingsFolder)).length === 1;
      await vscode.workspace.fs.delete(created ? settingsFolder : mcpJson, { recursive: true });
    }
  });

  it('serves other extensions through vscode.lm: text, a tool call, cancellation and a plain-words error', async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: 'gigachat', id: 'GigaChat-2' });
    const text = async (response: vscode.LanguageModelChatResponse) => {
      let all = '';
      for await (const part of response.text) all += part;
      return all;
    };
    const hello = await model.sendRequest([vscode.LanguageModelChatMessage.User('Say hello')], {}, new vscode.CancellationTokenSource().token);
    assert.match(await text(hello), /You asked: "Say hello"/);

    const tool = { name: 'lookup-weather', description: 'The weather in a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } };
    const asking = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User('[call lookup_weather {"city":"Moscow"}] weather?')],
      { tools: [tool] },
      new vscode.CancellationTokenSource().token,
    );
    const parts: unknown[] = [];
    for await (const part of asking.stream) parts.push(part);
    const call = parts.find((part): part is vscode.LanguageModelToolCallPart => part instanceof vscode.LanguageModelToolCallPart);
    assert.equal(call?.name, 'lookup-weather', 'the call names the tool as VS Code knows it');
    assert.deepEqual(call?.input, { city: 'Moscow' });
    const answered = await model.sendRequest(
      [
        vscode.LanguageModelChatMessage.User('[call lookup_weather {"city":"Moscow"}] weather?'),
        vscode.LanguageModelChatMessage.Assistant([call]),
        vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart('Snow, -5 °C')])]),
      ],
      { tools: [tool] },
      new vscode.CancellationTokenSource().token,
    );
    assert.match(await text(answered), /Snow, -5 °C/);

    await emulator.inject({ kind: 'slowFirstByte', ms: 5000 }, { endpoint: 'chat' });
    try {
      const cancel = new vscode.CancellationTokenSource();
      const slow = model.sendRequest([vscode.LanguageModelChatMessage.User('slow one')], {}, cancel.token);
      setTimeout(() => cancel.cancel(), 300);
      await assert.rejects(
        async () => text(await slow),
        (error: Error) => error instanceof vscode.CancellationError || /cancel/i.test(error.message),
      );
    } finally {
      await emulator.clearFaults();
    }

    await emulator.inject({ kind: 'status', status: 500 }, { endpoint: 'chat', times: 5 });
    try {
      await assert.rejects(
        async () => text(await model.sendRequest([vscode.LanguageModelChatMessage.User('fail please')], {}, new vscode.CancellationTokenSource().token)),
        (error: Error) => /GigaChat had a problem on its side/.test(error.message),
      );
    } finally {
      await emulator.clearFaults();
    }
  });

  it('sends a picture part to a model that sees pictures as an uploaded attachment, once', async function () {
    // LanguageModelDataPart came after 1.104 (the types this project builds against): used when VS Code has it.
    const DataPart = (vscode as unknown as { LanguageModelDataPart?: { image(data: Uint8Array, mimeType: string): unknown } }).LanguageModelDataPart;
    if (!DataPart) this.skip();
    // A real picture (1×1 PNG): VS Code decodes pictures before it passes them on.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const [model] = await vscode.lm.selectChatModels({ vendor: 'gigachat', id: 'GigaChat-2-Max' });
    await emulator.resetCounts();
    const question = vscode.LanguageModelChatMessage.User([
      new vscode.LanguageModelTextPart('What is on it?'),
      DataPart.image(png, 'image/png') as vscode.LanguageModelTextPart,
    ]);
    for (let round = 0; round < 2; round++) {
      const response = await model.sendRequest([question], {}, new vscode.CancellationTokenSource().token);
      let answer = '';
      for await (const part of response.text) answer += part;
      assert.match(answer, /Attached files:[\s\S]*image\/png/);
    }
    assert.equal(await emulator.count('fileUpload'), 1, 'the same picture is uploaded once');
  });

  it('the search tool sends nothing before the user agreed to indexing, and finds code by meaning after', async () => {
    await writeText('badgers.md', 'Badgers dig setts with many entrances and tunnels.\n');
    await vscode.commands.executeCommand('gigachat.clearSearchIndex');
    await emulator.resetCounts();
    const search = async () => {
      const result = await vscode.lm.invokeTool('gigachat_searchWorkspace', { input: { query: 'badgers digging tunnels' }, toolInvocationToken: undefined });
      return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    };
    assert.match(await search(), /indexing has not been allowed in this workspace yet, so nothing was sent/);
    assert.equal(await emulator.count('embeddings'), 0, 'nothing was embedded before consent');

    void vscode.commands.executeCommand('gigachat.semanticSearch', 'badgers');
    await workbench.dialogButton('Send and Index');
    await workbench.quickPickRows({ title: 'result', timeoutMs: 60_000 });
    await workbench.closeQuickInput();
    const found = await search();
    assert.match(found, /badgers\.md/);
    assert.match(found, /Badgers dig setts/);

    await askInChatView('@gigachat /search badgers digging tunnels');
    const listed = await answerContaining('badgers.md');
    assert.match(listed, /closest in meaning/);
    await workbench.screenshot('vscode-chat-search');
  });

  it('@gigachat /codebase answers from the passages closest to the question, with references; nothing is sent before consent', async () => {
    await writeText('otters.md', 'Otters hold hands while they sleep so they do not drift apart.\n');
    await vscode.commands.executeCommand('gigachat.clearSearchIndex');
    await emulator.resetCounts();
    await askInChatView('@gigachat #codebase why do otters hold hands?');
    assert.match(await answerContaining('has not been allowed'), /nothing was sent/);
    assert.equal(await emulator.count('embeddings'), 0, 'nothing was embedded before consent');
    assert.equal(await emulator.count('chat'), 0, 'nothing was asked before consent');

    void vscode.commands.executeCommand('gigachat.semanticSearch', 'otters');
    await workbench.dialogButton('Send and Index');
    await workbench.quickPickRows({ title: 'result', timeoutMs: 60_000 });
    await workbench.closeQuickInput();
    await emulator.resetCounts();
    await askInChatView('@gigachat /codebase why do otters hold hands?');
    // The emulator echoes the question: the passages' citations, which the model was asked to use.
    await answerContaining('otters.md:1');
    const [request] = await chatRequests();
    const question = request.messages.at(-1)!.content;
    assert.ok(question.includes('Otters hold hands while they sleep'), 'the passage went with the question');
    // (VS Code may add the open editor's file after it, as a reference of its own.)
    assert.ok(question.indexOf('Otters hold hands') < question.indexOf('why do otters hold hands?'), 'the passages come before the question');
    assert.equal(request.functions, undefined, 'answered from the passages, not with tools');
    // VS Code draws the references' pill beside the answer as it streams: wait for it rather than read it at the answer's first words.
    await until(async () => /Used \d+ references?/.test((await workbench.texts(SESSION)).join(' ')), 'VS Code listing the passages as references');
    await workbench.screenshot('vscode-chat-codebase');
  });

  it("Do it in Agent mode, under a panel answer with code, puts the question and the answer in VS Code's Chat, in Agent mode on GigaChat", async () => {
    await openChat();
    await chatView.newChat();
    await chatView.ask('Write the code of a function that retries upload()');
    await chatView.click('.turn-assistant:last-child .agent-mode');
    let session = '';
    await until(async () => {
      session = (await workbench.texts(SESSION)).join(' ').replace(/\s+/g, ' ');
      return /Make the changes this answer proposes/.test(session) && /\bAgent\b/.test(session) && /GigaChat/.test(session);
    }, "the handover in VS Code's Chat input, in Agent mode on GigaChat").catch(async (error: Error) => {
      await workbench.screenshot('agent-handoff-failure');
      throw new Error(`${error.message}; the Chat view shows: ${session}; notifications: ${(await workbench.notifications()).join(' | ')}`);
    });
    assert.equal((await chatRequests()).filter((request) => /Make the changes/.test(JSON.stringify(request.messages))).length, 0, 'left to the user to send');
  });
});
