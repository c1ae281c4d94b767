import * as assert from 'node:assert/strict';
import { MAX_FUNCTION_DESCRIPTION, MAX_PARAMETER_DESCRIPTION, toServiceFunction, toServiceFunctions, type ToolDescription } from '../../../../src/core';
import { parseFunctions } from '../../../emulator/function-schema';
import { rejectsWith, useEmulator } from '../../support/fixture';
import recorded from '../../support/vscodeTools-1.139.json';

/**
 * Every tool VS Code 1.139 offers an agent (`vscode.lm.tools` in code-server 4.139.1, with its
 * built-in Copilot extension and this one), name, description and input schema as recorded: VS
 * Code's agent sends the service these, dozens at a time, and one the service refuses fails the
 * whole question.
 */
const TOOLS = recorded.tools as ToolDescription[];

describe("VS Code 1.139's tools as the service's functions", () => {
  const t = useEmulator({ streamDelayMs: 0 });

  it('the recording is the whole list, with the schemas that need reducing', () => {
    assert.equal(recorded.vscode, '1.139.1');
    assert.ok(TOOLS.length >= 60, `${TOOLS.length} tools`);
    for (const name of ['run_in_terminal', 'copilot_readFile', 'copilot_replaceString', 'manage_todo_list', 'gigachat_editFile']) {
      assert.ok(
        TOOLS.some((tool) => tool.name === name),
        name,
      );
    }
    const text = JSON.stringify(TOOLS);
    for (const keyword of ['additionalProperties', 'anyOf', 'enumDescriptions', 'maxItems', 'pattern']) assert.ok(text.includes(`"${keyword}"`), keyword);
  });

  it('every one becomes a function the service accepts: name, description, parameters', () => {
    const { functions, names } = toServiceFunctions(TOOLS);
    const parsed = parseFunctions(functions);
    assert.ok(Array.isArray(parsed), `refused: ${JSON.stringify(parsed)}`);
    assert.equal(parsed.length, TOOLS.length);
    assert.deepEqual(
      functions.map((fn) => names.toolName(fn.name)),
      TOOLS.map((tool) => tool.name),
      'each call goes back to its own tool',
    );
    for (const fn of functions) assert.ok(fn.description.length > 0 && fn.description.length <= MAX_FUNCTION_DESCRIPTION, fn.name);
  });

  it('keeps what the model needs of each tool: its required parameters, and the start of a long description', () => {
    const { functions } = toServiceFunctions(TOOLS);
    TOOLS.forEach((tool, index) => {
      const schema = tool.inputSchema as { required?: string[]; properties?: Record<string, unknown> } | null;
      assert.deepEqual(functions[index].parameters.required ?? [], schema?.required ?? [], tool.name);
      assert.deepEqual(Object.keys(functions[index].parameters.properties), Object.keys(schema?.properties ?? {}), tool.name);
    });
    const terminal = functions.find((fn) => fn.name === 'run_in_terminal')!;
    const original = TOOLS.find((tool) => tool.name === 'run_in_terminal')!.description;
    assert.ok(original.length > 5_000);
    assert.ok(terminal.description.endsWith('…'));
    assert.ok(original.startsWith(terminal.description.slice(0, -1)), 'cut, not rewritten');
    const editInternal = functions.find((fn) => fn.name === 'vscode_editFile_internal')!;
    assert.equal(editInternal.description, 'vscode editFile internal', 'a tool without a description is described by its name');
  });

  it('all of them in one request reach the model through the emulator, ranked to the 12 that fit on the current contract', async () => {
    const { functions } = toServiceFunctions(TOOLS);
    const reply = await t.client.chat({
      model: 'GigaChat-2-Max',
      messages: [{ role: 'user', content: 'Which tools are there?' }],
      functions,
      function_call: 'auto',
    });
    assert.equal(reply.choices[0].finish_reason, 'stop');
    const [request] = t.emulator.requests.filter((sent) => sent.endpoint === 'chat');
    assert.equal(request.contract, 'v2');
    const body = JSON.parse(request.body) as { ranker_options?: unknown; tools: { functions: { specifications: unknown[] } }[] };
    assert.deepEqual(body.ranker_options, { enabled: true, top_n: 12 });
    assert.equal(body.tools[0].functions.specifications.length, TOOLS.length);
  });

  describe('shapes the service refuses, as tools write them', () => {
    const accepted = (inputSchema: unknown, description = 'A tool') => {
      const fn = toServiceFunction('tool', description, inputSchema);
      const parsed = parseFunctions([fn]);
      assert.ok(Array.isArray(parsed), `refused: ${JSON.stringify(parsed)}`);
      return fn;
    };

    it('a parameter without a type becomes text; an array without items, an array of text', () => {
      const fn = accepted({ type: 'object', properties: { anything: { description: 'Any value' }, list: { type: 'array' } } });
      assert.deepEqual(fn.parameters.properties, {
        anything: { type: 'string', description: 'Any value' },
        list: { type: 'array', items: { type: 'string' } },
      });
    });

    it('enum values of another type than the parameter are left out, and what each value means is said', () => {
      const fn = accepted({
        type: 'object',
        properties: {
          mode: { type: 'string', enum: ['fast', 1, 'slow'], enumDescriptions: ['Quick', '', 'Careful'] },
          level: { type: 'integer', enum: [1, 2.5, 3] },
        },
      });
      assert.deepEqual(fn.parameters.properties.mode, { type: 'string', description: 'Values: fast: Quick; slow: Careful.', enum: ['fast', 'slow'] });
      assert.deepEqual(fn.parameters.properties.level.enum, [1, 3]);
    });

    it('a description too long for a function or a parameter is cut at a sentence', () => {
      const long = `${'Runs a command in the terminal. '.repeat(60)}And more.`;
      const fn = accepted({ type: 'object', properties: { command: { type: 'string', description: long } } }, long);
      assert.ok(fn.description.length <= MAX_FUNCTION_DESCRIPTION);
      assert.match(fn.description, /terminal\.…$/);
      assert.ok((fn.parameters.properties.command.description ?? '').length <= MAX_PARAMETER_DESCRIPTION);
    });

    it('the emulator refuses each shape the reduction removes, with 422', async () => {
      const offer = (parameters: unknown, description = 'A tool') =>
        t.client.chat({ model: 'GigaChat', messages: [{ role: 'user', content: 'hi' }], functions: [{ name: 'tool', description, parameters } as never] });
      for (const parameters of [
        { type: 'object', properties: { anything: { description: 'Any value' } } },
        { type: 'object', properties: { list: { type: 'array' } } },
        { type: 'object', properties: { mode: { type: 'string', enum: ['a', 1] } } },
        { type: 'object', properties: { path: { type: 'string', description: 'x'.repeat(MAX_PARAMETER_DESCRIPTION + 1) } } },
        { type: 'object', additionalProperties: false, properties: {} },
      ]) {
        const error = await rejectsWith(offer(parameters), 'invalidRequest');
        assert.equal(error.status, 422, JSON.stringify(parameters));
      }
      await rejectsWith(offer({ type: 'object', properties: {} }, 'x'.repeat(MAX_FUNCTION_DESCRIPTION + 1)), 'invalidRequest');
    });
  });
});
