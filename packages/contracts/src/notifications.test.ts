import { describe, expect, it } from 'vitest';
import { AddIntegrationBody, integrationMessages } from './notifications.js';

const messages = (webhookUrl: string) => {
  const r = AddIntegrationBody.safeParse({ type: 'slack', webhookUrl });
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('the Slack integration body', () => {
  it('an empty webhook URL is a missing one, told once, not the integration failure', () => {
    expect(messages('')).toEqual([`webhookUrl: ${integrationMessages.webhookRequired}`]);
    expect(messages('   ')).toEqual([`webhookUrl: ${integrationMessages.webhookRequired}`]);
  });

  it('a URL that is not one is the spec’s url message; an http(s) URL passes', () => {
    expect(messages('hooks.slack.com/services/x')).toEqual([`webhookUrl: ${integrationMessages.badUrl}`]);
    expect(messages('ftp://hooks.slack.com/x')).toEqual([`webhookUrl: ${integrationMessages.badUrl}`]);
    expect(messages('https://hooks.slack.com/services/T/B/x')).toEqual([]);
  });
});
