import { describe, it, expect } from 'vitest';
import { missingTemplateInputs, StageFromTemplateBody } from './index.js';

describe('template inputs', () => {
  it.each([
    ['kubernetes', {}, null],
    ['strapi', { DatabaseClient: 'sqlite', ImageUrl: 'strapi/strapi:4', DesiredReplicas: 1, Memory: 512, CPU: 256 }, null],
    ['strapi', { DatabaseClient: 'sqlite', ImageUrl: '', DesiredReplicas: 1, Memory: 512, CPU: 256 }, 'Image URL is required'],
    ['strapi', { DatabaseClient: 'sqlite' }, 'Image URL, Desired replicas, Memory (MiB), CPU units are required'],
  ] as const)('%s with %j: %s', (template, values, message) => {
    expect(missingTemplateInputs(template, values)).toBe(message);
  });
});

describe('StageFromTemplateBody', () => {
  const stage = {
    name: 'cms',
    description: 'CMS',
    cloudProvider: 'aws',
    infrastructureAsCodeTool: 'cloudformation',
    awsAccountId: '123456789012',
    awsRegion: 'eu-west-1',
  };
  it('keeps the environment rules and takes a template, its values and a saving schedule', () => {
    expect(StageFromTemplateBody.parse({ ...stage, template: 'kubernetes' }).templateValues).toEqual({});
    expect(StageFromTemplateBody.safeParse({ ...stage, awsRegion: 'mars-1', template: 'strapi' }).error?.issues.map((i) => i.path.join('.'))).toEqual([
      'awsRegion',
    ]);
    expect(StageFromTemplateBody.safeParse({ ...stage, template: 'wordpress' }).success).toBe(false);
    const schedule = { name: 'office', startExpression: 'cron(0 8 ? * MON *)', stopExpression: 'cron(0 18 ? * MON *)' };
    expect(StageFromTemplateBody.parse({ ...stage, template: 'strapi', savingSchedule: schedule }).savingSchedule).toEqual({ ...schedule, timezone: 'UTC' });
  });
});
