import { beforeEach, describe, expect, it } from 'vitest';
import { installFakeBrowser } from '../../api/test-browser';
import { CONNECT_ORIGIN_TTL_MS, rememberConnectOrigin, stateOf, takeConnectOrigin } from './connect-origin';

const browser = installFakeBrowser();
beforeEach(() => browser.store.clear());

describe('the project a Git account connection started from', () => {
  it('reads the state of an authorize URL', () => {
    expect(stateOf('https://github.example/login/oauth/authorize?client_id=c&scope=repo&state=redirect%3Aportal')).toBe('redirect:portal');
    expect(stateOf('https://github.example/login/oauth/authorize?client_id=c')).toBe('');
  });

  it('is read once, for its state and type only', () => {
    rememberConnectOrigin('redirect:portal', 'github', 'p2', 1_000);
    expect(takeConnectOrigin('redirect:portal', 'gitlab', 2_000)).toBeNull();
    expect(takeConnectOrigin('other', 'github', 2_000)).toBeNull();
    expect(takeConnectOrigin('redirect:portal', 'github', 2_000)).toBe('p2');
    expect(takeConnectOrigin('redirect:portal', 'github', 2_000)).toBeNull();
  });

  it('is forgotten after its TTL and when unreadable', () => {
    rememberConnectOrigin('redirect:portal', 'github', 'p2', 0);
    expect(takeConnectOrigin('redirect:portal', 'github', CONNECT_ORIGIN_TTL_MS + 1)).toBeNull();
    browser.store.set('gantry:git-connect:github:redirect:portal', '{not json');
    expect(takeConnectOrigin('redirect:portal', 'github')).toBeNull();
    expect(browser.store.size).toBe(0);
  });
});
