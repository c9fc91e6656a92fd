import { describe, it, expect } from 'vitest';
import { createMasker, maskedForms } from './masking.js';

const SECRET = 'hunter2-Sup3r/Secret+value';

describe('masking secrets in logs', () => {
  it('masks the raw value, longest first, and leaves values too short to tell apart', () => {
    const mask = createMasker(['abc', 'p@ss.word', 'p@ss.word-long', '', 'ab', undefined]);
    expect(mask('token p@ss.word-long and p@ss.word; abc ab')).toBe('token **** and ****; **** ab');
    expect(createMasker([])('x')).toBe('x');
  });

  it.each([
    ['base64', Buffer.from(SECRET).toString('base64')],
    ['base64url', Buffer.from(SECRET).toString('base64url')],
    ['hex', Buffer.from(SECRET).toString('hex')],
    ['HEX', Buffer.from(SECRET).toString('hex').toUpperCase()],
    ['URL-encoded', encodeURIComponent(SECRET)],
  ])('masks the %s form', (_name, encoded) => {
    const line = createMasker([SECRET])(`value=${encoded};`);
    expect(line).toContain('****');
    // nothing of the encoded secret survives but at most a character at each end (alignment)
    const left = line.replace('value=', '').replace(';', '').replace('****', '');
    expect(left.length).toBeLessThanOrEqual(4);
  });

  it.each([0, 1, 2, 5])('masks base64 of the secret inside a longer text, %i bytes in', (prefix) => {
    const encoded = Buffer.from(`${'x'.repeat(prefix)}user:${SECRET}@host`).toString('base64');
    const masked = createMasker([SECRET])(encoded);
    expect(masked).toContain('****');
    expect(Buffer.from(masked.replace('****', ''), 'base64').toString('latin1')).not.toContain(SECRET.slice(2, -2));
  });

  it('masks a basic-auth header made of the secret', () => {
    const header = `Authorization: Basic ${Buffer.from(`ci:${SECRET}`).toString('base64')}`;
    expect(createMasker([SECRET])(header)).toMatch(/Basic .{0,4}\*\*\*\*/);
  });

  it('encodes only secrets of 6+ characters (short encodings look like ordinary text)', () => {
    expect(maskedForms('abcde')).toEqual(['abcde']);
    expect(maskedForms('abcdef').length).toBeGreaterThan(4);
    expect(createMasker(['abcde'])(Buffer.from('abcde').toString('hex'))).toBe('6162636465');
  });

  it('masks each line of a secret of several lines, as a log is masked a line at a time', () => {
    const key = [
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
      'QyNTUxOQAAACBx7n',
      '}',
      '-----END OPENSSH PRIVATE KEY-----',
    ].join('\n');
    const mask = createMasker([key]);
    // as `cat key` prints it (and with Windows line ends): each line of 6+ characters masked, shorter ones left
    expect(key.split('\n').map(mask)).toEqual(['****', '****', '****', '}', '****']);
    expect(createMasker([key.replace(/\n/g, '\r\n')])('  QyNTUxOQAAACBx7n')).toBe('  ****');
    // a one-line value's masking is unchanged
    expect(createMasker([SECRET])(`a ${SECRET} b`)).toBe('a **** b');
  });

  it.each([
    ['base64 (76 columns)', 76],
    ['openssl base64 and PEM (64 columns)', 64],
  ])('masks each line of the value encoded by %s, which wraps it', (_tool, width) => {
    const long = `${SECRET}-${'Zq8'.repeat(40)}`;
    const encoded = Buffer.from(long).toString('base64');
    const lines = encoded.match(new RegExp(`.{1,${width}}`, 'g'))!;
    expect(lines.length).toBeGreaterThan(2);
    const mask = createMasker([long]);
    // a last line shorter than 6 characters (at most 3 bytes of the value) cannot be told from ordinary text
    for (const line of lines) expect(mask(line)).toBe(line.replace(/=+$/, '').length >= 6 ? '****' : line);
  });
});
