import { describe, it, expect } from 'vitest';
import {
  Password, Email, SignUpBody, withConfirmation, ProjectBody, InviteUserBody, can, canAssign, hasPermission,
  sortProjects, matchesSearch, describeLimitations, environmentStatusTone, isNotDeployed, fieldErrors, isPending, messages,
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
    expect(describeLimitations({ environmentsAllowed: 2, buildMinutes: 0, pipelinesManager: true, slackIntegration: false })).toEqual(['2 Environments', 'Pipelines Manager']);
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
