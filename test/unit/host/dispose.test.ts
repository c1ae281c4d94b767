import * as assert from 'node:assert/strict';
import { Disposable, disposeAll, type DisposableLike } from '../../../src/host/dispose';

function counted(): DisposableLike & { count: number } {
  const item = { count: 0, dispose: () => void item.count++ };
  return item;
}

class Owner extends Disposable {
  register<T extends DisposableLike>(value: T): T {
    return this._register(value);
  }
  get disposed(): boolean {
    return this.isDisposed;
  }
}

describe('Disposable', () => {
  it('disposes what it registered once, however often it is disposed', () => {
    const owner = new Owner();
    const first = owner.register(counted());
    const second = owner.register(counted());
    owner.dispose();
    owner.dispose();
    assert.equal(first.count, 1);
    assert.equal(second.count, 1);
    assert.equal(owner.disposed, true);
  });

  it('hands back what it registers, and disposes at once what is registered after it was disposed', () => {
    const owner = new Owner();
    assert.equal(owner.disposed, false);
    owner.dispose();
    const late = counted();
    assert.equal(owner.register(late), late);
    assert.equal(late.count, 1);
  });

  it('disposes every item even when one throws, then rethrows', () => {
    const owner = new Owner();
    owner.register({
      dispose: () => {
        throw new Error('broken');
      },
    });
    const after = owner.register(counted());
    assert.throws(() => owner.dispose(), /broken/);
    assert.equal(after.count, 1);
  });
});

describe('disposeAll', () => {
  it('gathers several failures into one error, after disposing the rest', () => {
    const rest = counted();
    const failing = {
      dispose: () => {
        throw new Error('x');
      },
    };
    assert.throws(
      () => disposeAll([failing, rest, failing]),
      (error: unknown) => error instanceof AggregateError && error.errors.length === 2,
    );
    assert.equal(rest.count, 1);
  });
});
