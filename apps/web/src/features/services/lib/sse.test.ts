import { describe, expect, it } from 'vitest';
import { parseSse } from './sse';

describe('parseSse', () => {
  it('splits complete events and keeps the unfinished rest for the next chunk', () => {
    const first = parseSse('data: {"text":"a\\n"}\n\nevent: error\ndata: {"message":"x"}\n\ndata: {"te');
    expect(first.events).toEqual([
      { event: 'message', data: '{"text":"a\\n"}' },
      { event: 'error', data: '{"message":"x"}' },
    ]);
    const second = parseSse(`${first.rest}xt":"b"}\r\n\r\n: keep-alive\n\nevent: end\ndata: {}\n\n`);
    expect(second.events).toEqual([
      { event: 'message', data: '{"text":"b"}' },
      { event: 'end', data: '{}' },
    ]);
    expect(second.rest).toBe('');
  });
});
