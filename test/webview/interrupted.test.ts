import * as assert from 'node:assert/strict';
import { webviewStrings } from '../../src/shared/strings';
import { assistantTurn, state, userTurn } from './fixtures';
import { useView, View } from './harness';

const networkError = {
  kind: 'network',
  message: 'Could not connect to GigaChat. Check your network connection and proxy settings.',
  actions: ['retry' as const, 'openSettings' as const],
  requestId: 'req-42',
};

/** A reply that failed before any text came, then a question answered in full. */
const errorThenAnswer = [
  userTurn('u1', 'q1'),
  assistantTurn('a1', '', { status: 'error', error: networkError }),
  userTurn('u2', 'q2'),
  assistantTurn('a2', 'A whole answer.'),
];

describe('chat webview: a reply interrupted by an error', function () {
  this.timeout(60_000);
  let view: View;
  useView((opened) => (view = opened));

  it('keeps the text that streamed in, marks it incomplete, and offers Retry', async () => {
    await view.send(state({ busy: true, turns: [userTurn('u1', 'Explain retries')] }));
    await view.send({ type: 'turnAdded', conversationId: 'c1', turn: assistantTurn('a1', '', { status: 'streaming' }) });
    await view.send({ type: 'delta', turnId: 'a1', text: 'Retries repeat a request that ' });
    await view.send({ type: 'delta', turnId: 'a1', text: 'failed for a passing reason' });
    await view.send({
      type: 'turnUpdated',
      turn: assistantTurn('a1', 'Retries repeat a request that failed for a passing reason', { status: 'error', error: networkError }),
    });
    await view.send({ type: 'busy', busy: false });

    const turn = view.page.locator('.turn-assistant');
    assert.equal(await turn.locator('.turn-body').innerText(), 'Retries repeat a request that failed for a passing reason');
    assert.equal(await turn.locator('.note-incomplete').textContent(), webviewStrings.replyIncomplete);
    assert.equal(await turn.locator('.error-message').textContent(), networkError.message);
    await turn.getByRole('button', { name: 'Retry' }).click();
    assert.deepEqual(await view.postedOfType('errorAction'), [{ type: 'errorAction', action: 'retry', turnId: 'a1' }]);
  });

  it('does not call a reply incomplete when nothing of it arrived, or when it finished', async () => {
    await view.send(state({ turns: errorThenAnswer }));
    assert.equal(await view.page.locator('.turn-error').count(), 1);
    assert.equal(await view.page.locator('.note-incomplete').count(), 0);
  });

  it('offers Retry on the last reply only: retrying an older one would replace the newer replies', async () => {
    await view.send(state({ turns: errorThenAnswer }));
    const older = view.page.locator('.turn-assistant').nth(0);
    assert.equal(await older.locator('.error-message').textContent(), networkError.message, 'the older error is still explained');
    assert.equal(await view.page.getByRole('button', { name: 'Retry' }).count(), 0);
    assert.equal(await older.getByRole('button', { name: webviewStrings.actionOpenSettings }).count(), 1, 'the other actions stay');

    await view.send({ type: 'turnAdded', conversationId: 'c1', turn: userTurn('u3', 'q3') });
    await view.send({ type: 'busy', busy: true });
    await view.send({ type: 'turnAdded', conversationId: 'c1', turn: assistantTurn('a3', '', { status: 'streaming' }) });
    await view.send({ type: 'turnUpdated', turn: assistantTurn('a3', '', { status: 'error', error: networkError }) });
    assert.equal(await view.page.getByRole('button', { name: 'Retry' }).count(), 0, 'not while the host is still busy');
    await view.send({ type: 'busy', busy: false });
    await view.page.locator('.turn-assistant').nth(2).getByRole('button', { name: 'Retry' }).click();
    assert.deepEqual(await view.postedOfType('errorAction'), [{ type: 'errorAction', action: 'retry', turnId: 'a3' }]);
  });

  it('offers the proxy settings for a proxy error', async () => {
    await view.send(
      state({
        turns: [
          userTurn('u1', 'q1'),
          assistantTurn('a1', '', {
            status: 'error',
            error: { kind: 'proxy', message: 'The proxy refused the credentials.', actions: ['proxySettings', 'retry'] },
          }),
        ],
      }),
    );
    await view.page.getByRole('button', { name: webviewStrings.actionProxySettings }).click();
    assert.deepEqual(await view.postedOfType('errorAction'), [{ type: 'errorAction', action: 'proxySettings', turnId: 'a1' }]);
  });

  it('keeps Retry disabled until the time the service asked to wait for has passed', async () => {
    const waitError = {
      kind: 'rateLimit',
      message: 'GigaChat asks to wait 2 seconds before the next request. Retry is available then.',
      actions: ['retry' as const],
      retryAt: Date.now() + 2_000,
    };
    await view.send(state({ turns: [userTurn('u1', 'q1'), assistantTurn('a1', '', { status: 'error', error: waitError })] }));
    const retry = view.page.getByRole('button', { name: 'Retry' });
    assert.equal(await retry.isDisabled(), true, 'a request now would be refused again');
    assert.match((await retry.getAttribute('title')) ?? '', /^Available at /);
    await view.page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('[data-error-action="retry"]')?.disabled, undefined, { timeout: 10_000 });
    await retry.click();
    assert.deepEqual(await view.postedOfType('errorAction'), [{ type: 'errorAction', action: 'retry', turnId: 'a1' }]);
  });
});
