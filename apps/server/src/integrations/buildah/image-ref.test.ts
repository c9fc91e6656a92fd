import { describe, it, expect } from 'vitest';
import { imageTag, imageReference, repositoryOf, authFileContent, dockerfileInstructions, checkImageName } from './image-ref.js';

describe('docker-push image reference rules', () => {
  it('tags with the given tag, or the 7-character commit sha when none is given (never latest as well)', () => {
    expect(imageTag('v1.2.3', 'abcdef0123456789')).toBe('v1.2.3');
    expect(imageTag(undefined, 'abcdef0123456789')).toBe('abcdef0');
    expect(imageTag('  ', 'abcdef0123456789')).toBe('abcdef0');
    expect(() => imageTag(undefined, null)).toThrow(/no commit/);
    expect(() => imageTag('-bad', 'abc')).toThrow(/not a valid image tag/);
    expect(() => imageTag('a'.repeat(129), 'abc')).toThrow(/not a valid image tag/);
    expect(() => imageTag('feat/x', 'abc')).toThrow(/not a valid image tag/);
  });

  it('builds host/prefix/name:tag references and refuses invalid names', () => {
    expect(imageReference({ host: '127.0.0.1:5000', repositoryPrefix: '', imageName: 'app', tag: 'abc1234' })).toBe('127.0.0.1:5000/app:abc1234');
    expect(imageReference({ host: 'docker.io', repositoryPrefix: 'acme', imageName: 'web/api', tag: 'v1' })).toBe('docker.io/acme/web/api:v1');
    expect(repositoryOf({ repositoryPrefix: '/group/project/', imageName: 'app' })).toBe('group/project/app');
    expect(() => checkImageName('App')).toThrow(/not a valid image name/);
    expect(() => checkImageName('a//b')).toThrow(/not a valid image name/);
    expect(() => checkImageName('../x')).toThrow(/not a valid image name/);
    expect(() => imageReference({ host: 'evil host', repositoryPrefix: '', imageName: 'a', tag: 't' })).toThrow(/not a valid host/);
  });

  it('writes a containers-auth.json with base64(user:pass)', () => {
    const parsed = JSON.parse(authFileContent('reg.example:5000', 'u', 'p:w'));
    expect(parsed).toEqual({ auths: { 'reg.example:5000': { auth: Buffer.from('u:p:w').toString('base64') } } });
  });

  it('lists Dockerfile instructions, continuation lines joined, comments skipped', () => {
    expect(dockerfileInstructions('# syntax=x\nFROM scratch\n\nCOPY a \\\n  /b\n# RUN no\nrun echo \\\n# c\n  hi\n')).toEqual(['FROM', 'COPY', 'RUN']);
  });
});
