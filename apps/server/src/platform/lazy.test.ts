import { describe, expect, it } from 'vitest';
import { deferredMethods, lazy } from './lazy.js';

describe('lazy loading', () => {
  it('loads once, on the first call', async () => {
    let loads = 0;
    const load = lazy(async () => ++loads);
    expect(loads).toBe(0);
    expect(await Promise.all([load(), load()])).toEqual([1, 1]);
    expect(await load()).toBe(1);
  });

  it('deferredMethods makes the real object on the first method call, once, and passes arguments and failures through', async () => {
    let made = 0;
    const real = {
      async add(a: number, b: number) {
        return a + b;
      },
      async fail() {
        throw new Error('refused');
      },
    };
    const o = deferredMethods({ add: true, fail: true }, async () => (made++, real));
    expect(made).toBe(0);
    expect(Object.keys(o)).toEqual(['add', 'fail']); // a wrapper that walks the methods (connectWithin) finds them
    expect(await o.add(2, 3)).toBe(5);
    await expect(o.fail()).rejects.toThrow('refused');
    expect(made).toBe(1);
    expect(await Promise.resolve(o)).toBe(o); // not taken for a promise
  });
});
