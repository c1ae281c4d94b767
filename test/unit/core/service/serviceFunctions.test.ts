import * as assert from 'node:assert/strict';
import { FunctionNames, serviceFunctionName, toServiceFunction, toServiceFunctions } from '../../../../src/core';

/** Every keyword of a reduced schema, at any depth, so a test can say none outside the subset is left. */
function keywords(schema: unknown, found = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return found;
  const node = schema as Record<string, unknown>;
  for (const key of Object.keys(node)) found.add(key);
  if (node.items) keywords(node.items, found);
  for (const property of Object.values((node.properties as Record<string, unknown>) ?? {})) keywords(property, found);
  return found;
}

const SUBSET = new Set(['type', 'properties', 'required', 'description', 'enum', 'items']);

describe('toServiceFunction: a tool as a function the service accepts', () => {
  it('reduces a schema as zod-to-json-schema writes it ($schema, additionalProperties, format, default) and keeps their meaning in the description', () => {
    const fn = toServiceFunction('copilot_readFile', 'Read a file', {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: {
        filePath: { type: 'string', description: 'Absolute path', format: 'uri' },
        startLine: { type: 'integer', minimum: 1, default: 1 },
        encoding: { type: 'string', enum: ['utf8', 'latin1'] },
      },
      required: ['filePath', 'notAProperty'],
    });
    assert.deepEqual(fn, {
      name: 'copilot_readFile',
      description: 'Read a file',
      parameters: {
        type: 'object',
        properties: {
          filePath: { type: 'string', description: 'Absolute path Format: uri.' },
          startLine: { type: 'integer', description: 'Default: 1. Minimum: 1.' },
          encoding: { type: 'string', enum: ['utf8', 'latin1'] },
        },
        required: ['filePath'],
      },
    });
  });

  it('resolves $ref into $defs and definitions, merges allOf, and takes the non-null branch of anyOf', () => {
    const fn = toServiceFunction('mcp_github_create_issue', 'Create an issue', {
      type: 'object',
      $defs: { Label: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      definitions: { State: { type: 'string', enum: ['open', 'closed'] } },
      properties: {
        labels: { type: 'array', items: { $ref: '#/$defs/Label' } },
        state: { $ref: '#/definitions/State', description: 'Issue state' },
        assignee: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'Login' },
        milestone: { type: ['integer', 'null'] },
        body: {
          allOf: [
            { type: 'object', properties: { text: { type: 'string' } } },
            { properties: { markdown: { type: 'boolean' } }, required: ['text'] },
          ],
        },
        kind: { oneOf: [{ const: 'bug' }, { const: 'feature' }] },
      },
    });
    assert.deepEqual(fn.parameters.properties, {
      labels: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      state: { type: 'string', description: 'Issue state', enum: ['open', 'closed'] },
      assignee: { type: 'string', description: 'Login' },
      milestone: { type: 'integer' },
      body: { type: 'object', properties: { text: { type: 'string' }, markdown: { type: 'boolean' } }, required: ['text'] },
      kind: { type: 'string', enum: ['bug', 'feature'] },
    });
  });

  it('cuts a recursive $ref at a fixed depth instead of looping, leaving only the subset at every level', () => {
    const fn = toServiceFunction('tree', 'Walk a tree', {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      $defs: {
        Node: { type: 'object', additionalProperties: { type: 'string' }, properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } } },
      },
    });
    assert.deepEqual(
      [...keywords(fn.parameters)].filter((key) => !SUBSET.has(key) && !['root', 'children'].includes(key)),
      [],
    );
    assert.ok(JSON.stringify(fn).length < 2_000);
  });

  it('gives a tool without input (or with a non-object input) an object schema the service accepts', () => {
    assert.deepEqual(toServiceFunction('list', 'List things', undefined).parameters, { type: 'object', properties: {} });
    assert.deepEqual(toServiceFunction('say', 'Say', { type: 'string', description: 'What to say' }).parameters, {
      type: 'object',
      properties: { value: { type: 'string', description: 'What to say' } },
      required: ['value'],
    });
  });

  it('maps tool names to letters, digits and _, and collisions to distinct names that map back', () => {
    assert.equal(serviceFunctionName('vscode-websearchforcopilot_webSearch'), 'vscode_websearchforcopilot_webSearch');
    assert.equal(serviceFunctionName('mcp.github/get issue'), 'mcp_github_get_issue');
    assert.equal(serviceFunctionName('читать'), '______');
    const { functions, names } = toServiceFunctions([
      { name: 'read-file', description: 'a', inputSchema: {} },
      { name: 'read.file', description: 'b', inputSchema: {} },
      { name: 'read_file', description: 'c', inputSchema: {} },
    ]);
    assert.deepEqual(
      functions.map((fn) => fn.name),
      ['read_file', 'read_file_2', 'read_file_3'],
    );
    assert.deepEqual(
      functions.map((fn) => names.toolName(fn.name)),
      ['read-file', 'read.file', 'read_file'],
    );
    assert.equal(names.toolName('unknown'), undefined);
    const long = new FunctionNames(['x'.repeat(100), `${'x'.repeat(100)}-`]);
    assert.equal(long.serviceName(`${'x'.repeat(100)}-`)?.length, 64);
  });
});
