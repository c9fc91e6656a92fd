import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/errors';
import { nextVersionsOffset, retryOn503 } from '../api/list-repository-versions';
import { shortDigest } from './versions';

describe('versions', () => {
  it('shows 7 characters of the commit, else of the digest without its algorithm', () => {
    expect(
      shortDigest({ digest: 'sha256:0123456789abcdef', commit: { sha: 'fedcba9876', message: 'm', name: 'fedcba9876', user: { name: 'u', avatar: '' } } }),
    ).toBe('fedcba9');
    expect(shortDigest({ digest: 'sha256:0123456789abcdef', commit: null })).toBe('0123456');
    expect(shortDigest({ digest: null, commit: null })).toBe('');
  });

  it('pages on while lastElementCursor is not -1', () => {
    expect(nextVersionsOffset({ tags: [], lastElementCursor: 10 })).toBe(10);
    expect(nextVersionsOffset({ tags: [], lastElementCursor: -1 })).toBeUndefined();
  });

  it('retries a 503 only', () => {
    expect(retryOn503(0, new ApiError(503, { message: 'busy' }))).toBe(true);
    expect(retryOn503(3, new ApiError(503, {}))).toBe(true);
    expect(retryOn503(0, new ApiError(500, { message: 'boom' }))).toBe(false);
    expect(retryOn503(0, new ApiError(404, { message: 'gone' }))).toBe(false);
    expect(retryOn503(0, new Error('network'))).toBe(false);
  });
});
