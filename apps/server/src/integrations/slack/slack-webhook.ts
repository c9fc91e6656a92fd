/**
 * Slack's incoming webhooks (https://api.slack.com/messaging/webhooks): one POST of JSON per message.
 * The answer says what the caller does next: done, wait and send again (429 with Retry-After), try again
 * later (5xx, network: `unreachable` when no answer came at all) or give up (any other 4xx: the hook was
 * removed or the payload refused).
 */
export type SlackPostResult =
  | { kind: 'sent' }
  | { kind: 'rate-limited'; retryAfterSeconds: number }
  | { kind: 'transient'; reason: string; unreachable?: true }
  | { kind: 'rejected'; reason: string };

export interface SlackMessage {
  /** mrkdwn: `<url|label>` links, `*bold*`. */
  text: string;
}

/** Slack's first answer to a burst names its wait; without one a second is the documented minimum. */
export function retryAfterSeconds(header: string | null): number {
  const n = Number(header);
  return Number.isFinite(n) && n > 0 ? Math.min(Math.ceil(n), 3600) : 1;
}

export async function postToSlack(fetchFn: typeof fetch, url: string, message: SlackMessage, timeoutMs = 10_000): Promise<SlackPostResult> {
  let res: Response;
  try {
    res = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    return { kind: 'transient', reason: (err as Error).message, unreachable: true };
  }
  const body = (await res.text().catch(() => '')).slice(0, 200);
  if (res.ok) return { kind: 'sent' };
  if (res.status === 429) return { kind: 'rate-limited', retryAfterSeconds: retryAfterSeconds(res.headers.get('retry-after')) };
  if (res.status >= 500) return { kind: 'transient', reason: `${res.status} ${body}`.trim() };
  return { kind: 'rejected', reason: `${res.status} ${body}`.trim() };
}

/** Slack's mrkdwn escapes: &, < and > would otherwise start entities or links. */
export const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
export const slackLink = (url: string, label: string) => `<${url}|${slackEscape(label)}>`;
