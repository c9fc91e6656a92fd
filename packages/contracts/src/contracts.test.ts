import { describe, it, expect } from 'vitest';
import {
  Password,
  Email,
  SignUpBody,
  withConfirmation,
  ProjectBody,
  InviteUserBody,
  can,
  canAssign,
  hasPermission,
  sortProjects,
  matchesSearch,
  describeLimitations,
  numericLimitMessage,
  numericLimitReached,
  environmentStatusTone,
  isNotDeployed,
  fieldErrors,
  isPending,
  messages,
} from './index.js';
import { z } from 'zod';

const firstError = (schema: z.ZodTypeAny, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? null : r.error.issues[0]!.message;
};

describe('password rules (spec §5)', () => {
  it.each([
    ['', messages.passwordRequired],
    ['Ab1', messages.passwordMin],
    ['ABCDEFG1', messages.passwordLower],
    ['abcdefg1', messages.passwordUpper],
    ['Abcdefgh', messages.passwordNumber],
    ['Abcdefg1', null],
  ])('%j → %s', (value, expected) => expect(firstError(Password, value)).toBe(expected));

  it('requires the confirmation to match', () => {
    const schema = withConfirmation(z.object({ password: Password }));
    expect(fieldErrors(schema.safeParse({ password: 'Abcdefg1', confirmPassword: 'x' }).error!)).toEqual({ confirmPassword: ["Passwords don't match"] });
    expect(schema.safeParse({ password: 'Abcdefg1', confirmPassword: 'Abcdefg1' }).success).toBe(true);
  });
});

describe('e-mail rule', () => {
  it.each([
    ['', messages.emailRequired],
    ['not-an-email', messages.emailInvalid],
    ['  Someone@Example.COM ', null],
  ])('%j → %s', (value, expected) => expect(firstError(Email, value)).toBe(expected));
  it('normalises to lower case', () => expect(Email.parse(' A@B.io ')).toBe('a@b.io'));
});

describe('forms', () => {
  it('sign-up needs every field', () => {
    const errors = fieldErrors(SignUpBody.safeParse({}).error!);
    expect(Object.keys(errors).sort()).toEqual(['firstName', 'lastName', 'password', 'username']);
  });
  it.each([
    [{ name: 'x'.repeat(20), description: 'd' }, null],
    [{ name: 'x'.repeat(21), description: 'd' }, 'Project name must be at most 20 characters'],
    [{ name: 'ok', description: '' }, 'Description is required'],
    [{ name: '  ', description: 'd' }, 'Project name is required'],
  ])('project %j → %s', (value, expected) => expect(firstError(ProjectBody, value)).toBe(expected));
  it('invitation defaults to write and names a missing permission', () => {
    expect(InviteUserBody.parse({ email: 'a@b.io' }).permission).toBe('write');
    expect(firstError(InviteUserBody, { email: 'a@b.io', permission: 'root' })).toBe('Please assign a permission');
  });
});

describe('roles (spec §6)', () => {
  it.each([
    ['owner', 'manageProject', true],
    ['admin', 'manageProject', false],
    ['admin', 'manageUsers', true],
    ['write', 'manageUsers', false],
    ['write', 'change', true],
    ['read', 'change', false],
    ['read', 'view', true],
  ] as const)('%s may %s: %s', (perm, action, expected) => expect(can(perm, action)).toBe(expected));
  it('nobody without a membership may do anything', () => expect(can(undefined, 'view')).toBe(false));
  it('orders permissions', () => {
    expect(hasPermission('owner', 'read')).toBe(true);
    expect(hasPermission('read', 'write')).toBe(false);
  });
  it.each([
    ['owner', 'owner', 'read', true],
    ['admin', 'write', 'read', true],
    ['admin', 'owner', 'read', false],
    ['admin', 'read', 'owner', false],
    ['admin', undefined, 'admin', true],
    ['write', 'read', 'write', false],
  ] as const)('%s changing %s → %s: %s', (actor, from, to, expected) => expect(canAssign(actor, from, to)).toBe(expected));
});

describe('lists', () => {
  it('sorts projects by name ignoring case', () => {
    expect(sortProjects([{ name: 'beta' }, { name: 'Alpha' }, { name: 'alpine' }]).map((p) => p.name)).toEqual(['Alpha', 'alpine', 'beta']);
  });
  it.each([
    ['', true],
    ['ALP', true],
    ['team', true],
    ['zzz', false],
  ])('search %j', (term, expected) => expect(matchesSearch(term, 'Alpha', 'Our team project')).toBe(expected));
  it('pending means FORCE_CHANGE_PASSWORD', () => {
    expect(isPending('FORCE_CHANGE_PASSWORD')).toBe(true);
    expect(isPending('CONFIRMED')).toBe(false);
  });
});

describe('plan limitations display (spec §3)', () => {
  it('shows numbers with a count, booleans as labels, hides falsy ones', () => {
    expect(describeLimitations({ environmentsAllowed: 2, buildMinutes: 0, pipelinesManager: true, slackIntegration: false })).toEqual([
      '2 Environments',
      'Pipelines Manager',
    ]);
  });

  it('tells a numeric limit reached: no room at the limit or past it, room below it or without a known plan', () => {
    expect(numericLimitMessage('environmentsAllowed', 2)).toBe('Your plan allows 2 environments. Upgrade your plan to get more.');
    expect(numericLimitMessage('buildMinutes', 500)).toBe('Your plan allows 500 build minutes. Upgrade your plan to get more.');
    expect(numericLimitReached({ environmentsAllowed: 2 }, 'environmentsAllowed', 2)).toBe(2);
    expect(numericLimitReached({ environmentsAllowed: 2 }, 'environmentsAllowed', 3)).toBe(2);
    expect(numericLimitReached({ environmentsAllowed: 2 }, 'environmentsAllowed', 1)).toBeNull();
    expect(numericLimitReached(undefined, 'environmentsAllowed', 5)).toBeNull();
  });
});

describe('environment status tone (spec §4)', () => {
  it.each([
    ['CREATE_IN_PROGRESS', 'warning'],
    ['REVIEW_IN_PROGRESS', 'placeholder'],
    ['UPDATE_COMPLETE', 'success'],
    ['DELETE_COMPLETE', 'placeholder'],
    ['ROLLBACK_FAILED', 'fail'],
    ['NOT_DEPLOYED', 'placeholder'],
    [null, 'placeholder'],
  ])('%s → %s', (status, tone) => expect(environmentStatusTone(status)).toBe(tone));
  it('counts NOT_DEPLOYED and DELETE_COMPLETE as not deployed', () => {
    expect(isNotDeployed('NOT_DEPLOYED')).toBe(true);
    expect(isNotDeployed('DELETE_COMPLETE')).toBe(true);
    expect(isNotDeployed('CREATE_COMPLETE')).toBe(false);
  });
});

import { nameSimilarity, rankReferenceSuggestions, ResourceBody, StageBody, replicaDefaults, stageLocked } from './index.js';

describe('reference suggestions (infrastructure spec, resource modal)', () => {
  it.each([
    ['vpc_id', 'vpc_id', 1],
    ['VpcId', 'vpc_id', 1],
    ['subnet', 'vpc_id', 0],
  ])('similarity of %s and %s is %s', (a, b, s) => expect(nameSimilarity(a, b)).toBe(s));
  it('scores partial matches between 0 and 1', () => {
    const s = nameSimilarity('database_url', 'db_url');
    expect(s).toBeGreaterThan(0.2);
    expect(s).toBeLessThan(1);
  });
  it("ranks other resources' outputs and flags those above 0.65 as suggested", () => {
    const ranked = rankReferenceSuggestions('vpc_id', [
      { resource: 'network', output: 'subnet_ids' },
      { resource: 'network', output: 'vpc_id' },
      { resource: 'cluster', output: 'vpcid' },
    ]);
    expect(ranked.map((r) => [r.value, r.suggested])).toEqual([
      ['cluster.vpcid', true],
      ['network.vpc_id', true],
      ['network.subnet_ids', false],
    ]); // ties by name
  });
});

describe('environment and resource forms', () => {
  it('replica defaults and the deployed lock', () => {
    expect(replicaDefaults({ name: 'prod' })).toEqual({ name: 'prodReplica', description: 'Replica of prod environment' });
    expect(['NOT_DEPLOYED', 'DELETE_COMPLETE', 'CREATE_COMPLETE', 'UPDATE_IN_PROGRESS'].map(stageLocked)).toEqual([false, false, true, true]);
  });
  it('forces terraform for non-aws providers', () => {
    const r = StageBody.safeParse({
      name: 'azureEnv',
      description: 'Azure',
      cloudProvider: 'azurerm',
      infrastructureAsCodeTool: 'cloudformation',
      tenantId: 't',
      subscriptionId: 's',
    });
    expect(r.error!.issues.map((i) => i.message)).toEqual(['CloudFormation environments need the aws provider']);
  });
  it('a reference must name resourceName.outputName', () => {
    const bad = ResourceBody.safeParse({
      name: 'app',
      componentId: '6a1f7d3e-8c6e-4b0e-9b7a-1c2d3e4f5a6b',
      configurations: [{ key: 'vpc', value: 'nope', reference: true }],
    });
    expect(bad.error!.issues[0]!.message).toBe('Must select from suggested items in select mode*');
    expect(
      ResourceBody.safeParse({
        name: 'app',
        componentId: '6a1f7d3e-8c6e-4b0e-9b7a-1c2d3e4f5a6b',
        configurations: [{ key: 'vpc', value: 'network.vpc_id', reference: true }],
      }).success,
    ).toBe(true);
    expect(ResourceBody.safeParse({ name: 'a__b', componentId: '6a1f7d3e-8c6e-4b0e-9b7a-1c2d3e4f5a6b' }).success).toBe(false);
  });
  it('names: environments 3 to 20 letters and digits, resources 3 to 30, descriptions 1 to 255', () => {
    const base = { description: 'd', cloudProvider: 'azurerm', tenantId: 't', subscriptionId: 's' };
    const nameOk = (name: string) => StageBody.safeParse({ ...base, name }).success;
    expect(['abc', 'a'.repeat(20), 'Prod2'].map(nameOk)).toEqual([true, true, true]);
    expect(['ab', 'a'.repeat(21), 'my-env', 'my env', 'env_1'].map(nameOk)).toEqual([false, false, false, false, false]);
    expect(StageBody.safeParse({ ...base, name: 'prod', description: '' }).error!.issues[0]!.message).toBe('Description must be 1 to 255 characters');
    expect(StageBody.safeParse({ ...base, name: 'prod', description: 'x'.repeat(256) }).success).toBe(false);
    const resOk = (name: string) => ResourceBody.safeParse({ name, componentId: '6a1f7d3e-8c6e-4b0e-9b7a-1c2d3e4f5a6b' }).success;
    expect(['web', 'a'.repeat(30), 'db1'].map(resOk)).toEqual([true, true, true]);
    expect(['ab', 'a'.repeat(31), 'my-db', 'my_db', '1db'].map(resOk)).toEqual([false, false, false, false, false]);
    expect(ResourceBody.safeParse({ name: 'web', componentId: '6a1f7d3e-8c6e-4b0e-9b7a-1c2d3e4f5a6b', componentVersion: '' }).error!.issues[0]!.message).toBe(
      'Please select a version',
    );
  });
});

describe('Add to Environment defaults', () => {
  it('names the resource after the component, numbered when taken', async () => {
    const { defaultResourceName } = await import('./index.js');
    expect(defaultResourceName('Static site bucket', [])).toBe('Staticsitebucket');
    expect(defaultResourceName('Static site bucket', ['staticsitebucket', 'Staticsitebucket2'])).toBe('Staticsitebucket3');
    expect(defaultResourceName('A-1', [])).toBe('A10');
    expect(defaultResourceName('3 tier', [])).toBe('r3tier');
    expect(defaultResourceName('x'.repeat(40), ['x'.repeat(30)])).toBe(`${'x'.repeat(29)}2`);
  });
  it('fills inputs with their defaults, or asks when a required input has none', async () => {
    const { defaultConfigurations } = await import('./index.js');
    expect(defaultConfigurations([{ name: 'region', default: 'eu', required: true }, { name: 'size', default: 2 }, { name: 'tags' }])).toEqual([
      { key: 'region', value: 'eu', sensitive: false, reference: false },
      { key: 'size', value: 2, sensitive: false, reference: false },
    ]);
    expect(defaultConfigurations([{ name: 'bucket_name', required: true }])).toBeNull();
  });
});
