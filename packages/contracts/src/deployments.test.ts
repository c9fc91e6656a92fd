import { describe, expect, it } from 'vitest';
import {
  stackStatusDisplay,
  statusClass,
  environmentActions,
  deployBlockedReason,
  missingTargetAccount,
  resourceDeployed,
  resourceActions,
  outputsAvailable,
  planActionTone,
  deploymentMinutes,
  deploymentCardSuccess,
  deploymentSettled,
  canCancelDeployment,
  canContinueRollback,
  stageInProgress,
  stageNotDeployed,
  stageLastDeployed,
  lastGoodVersions,
} from './index.js';

describe('environment status display (spec §4)', () => {
  it.each([
    ['CREATE_COMPLETE', 'DEPLOYED'],
    ['UPDATE_COMPLETE', 'DEPLOYED'],
    ['CREATE_IN_PROGRESS', 'DEPLOYING'],
    ['UPDATE_IN_PROGRESS', 'DEPLOYING'],
    ['UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'DEPLOYING'],
    ['ROLLBACK_IN_PROGRESS', 'ROLLBACK'],
    ['UPDATE_ROLLBACK_IN_PROGRESS', 'ROLLBACK'],
    ['UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS', 'ROLLBACK'],
    ['UPDATE_ROLLBACK_COMPLETE', 'ROLLBACKED'],
    ['ROLLBACK_COMPLETE', 'ROLLBACKED'],
    ['DELETE_IN_PROGRESS', 'TERMINATING'],
    ['DELETE_COMPLETE', 'TERMINATED'],
    ['CREATE_FAILED', 'FAILED'],
    ['UPDATE_ROLLBACK_FAILED', 'FAILED'],
    ['DELETE_FAILED', 'FAILED'],
    ['NOT_DEPLOYED', 'NOT DEPLOYED'],
    ['REVIEW_IN_PROGRESS', 'REVIEW IN PROGRESS'],
    ['DEPLOY_QUEUED', 'DEPLOY QUEUED'],
  ])('%s → %s', (status, shown) => expect(stackStatusDisplay(status)).toBe(shown));
});

describe('build and deploy display class', () => {
  it.each([
    ['CREATE_IN_PROGRESS', 'warning'],
    ['RUNNING', 'warning'],
    ['CREATE_FAILED', 'fail'],
    ['TIMED_OUT', 'fail'],
    ['QUEUED', 'queued'],
    ['NO BUILD', 'nobuild'],
    ['ABORTED', 'aborted'],
    ['SUCCEEDED', 'success'],
    ['UPDATE_COMPLETE', 'success'],
  ])('%s → %s', (status, cls) => expect(statusClass(status)).toBe(cls));
});

describe('environment enable rules', () => {
  it('not deployed and in progress', () => {
    expect(['NOT_DEPLOYED', 'REVIEW_IN_PROGRESS', 'DELETE_COMPLETE', 'CREATE_COMPLETE'].map(stageNotDeployed)).toEqual([true, true, true, false]);
    expect(['CREATE_IN_PROGRESS', 'REVIEW_IN_PROGRESS', 'DEPLOY_QUEUED', 'CREATE_COMPLETE'].map(stageInProgress)).toEqual([true, false, true, false]);
  });
  it('Last Deployed: the last deployment time while deployed, N/A once undeployed or never deployed', () => {
    const at = '2026-11-20T10:00:00.000Z';
    expect(stageLastDeployed({ status: 'UPDATE_COMPLETE', lastDeployed: at })).toBe(at);
    expect(stageLastDeployed({ status: 'DELETE_IN_PROGRESS', lastDeployed: at })).toBe(at); // still deployed while the undeploy runs
    expect(stageLastDeployed({ status: 'DELETE_FAILED', lastDeployed: at })).toBe(at);
    expect(stageLastDeployed({ status: 'DELETE_COMPLETE', lastDeployed: at })).toBeNull();
    expect(stageLastDeployed({ status: 'NOT_DEPLOYED', lastDeployed: null })).toBeNull();
    expect(stageLastDeployed(undefined)).toBeNull();
  });
  it.each([
    ['NOT_DEPLOYED', { replicate: true, undeploy: false, delete: true, deploy: true, cancel: false }],
    ['CREATE_COMPLETE', { replicate: true, undeploy: true, delete: false, deploy: true, cancel: false }],
    ['UPDATE_IN_PROGRESS', { replicate: false, undeploy: false, delete: false, deploy: false, cancel: true }],
    ['CREATE_FAILED', { replicate: true, undeploy: true, delete: false, deploy: true, cancel: false }],
    ['DELETE_COMPLETE', { replicate: true, undeploy: false, delete: true, deploy: true, cancel: false }],
  ])('%s', (status, actions) => expect(environmentActions(status)).toEqual(actions));
  it('quick deploy is blocked in review and after a failed create rollback', () => {
    expect(deployBlockedReason('ROLLBACK_COMPLETE')).toEqual({
      title: 'Stack cannot be deployed',
      message: 'Stack is in ROLLBACK_COMPLETE status, you must undeploy it first',
    });
    expect(deployBlockedReason('REVIEW_IN_PROGRESS')?.title).toBe('Stack cannot be deployed');
    expect(deployBlockedReason('UPDATE_COMPLETE')).toBeNull();
  });
  it('needs the target account of its provider', () => {
    expect(missingTargetAccount({ cloudProvider: 'aws', awsAccountId: null })).toEqual(['awsAccountId']);
    expect(missingTargetAccount({ cloudProvider: 'aws', awsAccountId: 'a' })).toEqual([]);
    expect(missingTargetAccount({ cloudProvider: 'azurerm', tenantId: 't' })).toEqual(['subscriptionId']);
    expect(missingTargetAccount({ cloudProvider: 'google', gcpProjectId: 'p', gcpRegion: 'us-east1' })).toEqual(['gcpZone']);
  });
  it('outputs need an account and a stack that is not deleted or rolled back', () => {
    const aws = { cloudProvider: 'aws', awsAccountId: 'a' };
    expect(outputsAvailable({ ...aws, status: 'CREATE_COMPLETE' })).toBe(true);
    expect(outputsAvailable({ ...aws, status: 'DELETE_COMPLETE' })).toBe(false);
    expect(outputsAvailable({ ...aws, status: 'ROLLBACK_COMPLETE' })).toBe(false);
    expect(outputsAvailable({ cloudProvider: 'aws', awsAccountId: null, status: 'CREATE_COMPLETE' })).toBe(false);
  });
});

describe('resource rules', () => {
  it('deployed unless not deployed, deleted or failed to create', () => {
    expect(['NOT_DEPLOYED', 'DELETE_COMPLETE', 'CREATE_FAILED', 'CREATE_COMPLETE', 'UPDATE_FAILED'].map(resourceDeployed)).toEqual([
      false,
      false,
      false,
      true,
      true,
    ]);
  });
  it.each([
    ['CREATE_COMPLETE', 'terraform', { undeploy: true, delete: false }],
    ['NOT_DEPLOYED', 'terraform', { undeploy: false, delete: true }],
    ['UPDATE_IN_PROGRESS', 'terraform', { undeploy: false, delete: false }],
    ['CREATE_COMPLETE', 'cloudformation', { undeploy: false, delete: true }],
    ['CREATE_IN_PROGRESS', 'cloudformation', { undeploy: false, delete: false }],
  ] as const)('%s on %s', (status, tool, actions) => expect(resourceActions(status, tool)).toEqual(actions));
});

describe('plans, history and details', () => {
  it('plan action categories', () => {
    expect(['add', 'create', 'remove', 'delete', 'no-op', 'update', 'replace'].map((a) => planActionTone(a).tone)).toEqual([
      'success',
      'success',
      'fail',
      'fail',
      'none',
      'warning',
      'warning',
    ]);
    expect(planActionTone('no-op').label).toBe('No changes');
  });
  it('deployment time in whole minutes, rounded up', () => {
    expect([0, 1, 60000, 60001, 125000].map(deploymentMinutes)).toEqual([0, 1, 1, 2, 3]);
  });
  it('a card is a success only when it is the current deployment', () => {
    expect(deploymentCardSuccess({ status: 'UPDATE_COMPLETE', deploymentId: 'a' }, 'a')).toBe(true);
    expect(deploymentCardSuccess({ status: 'UPDATE_COMPLETE', deploymentId: 'a' }, 'b')).toBe(false);
    expect(deploymentCardSuccess({ status: 'UPDATE_FAILED', deploymentId: 'a' }, 'a')).toBe(false);
  });
  it('details stop polling on FAILED or COMPLETE; cancel and continue rollback', () => {
    expect(['CREATE_FAILED', 'UPDATE_COMPLETE', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'CREATE_IN_PROGRESS'].map(deploymentSettled)).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(['CREATE_IN_PROGRESS', 'UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE'].map(canCancelDeployment)).toEqual([true, true, false]);
    expect(['UPDATE_ROLLBACK_FAILED', 'ROLLBACK_FAILED'].map(canContinueRollback)).toEqual([true, false]);
  });
});

describe('Terraform rollback check: last good version', () => {
  const res = (version: string) => [{ name: 'web', component: { id: 'c', name: 'Web' }, componentVersion: `build-${version}`, version }];
  const history = [
    { deploymentId: 'd4', status: 'UPDATE_FAILED', kind: 'DEPLOY' as const, resources: res('ccccccc') },
    { deploymentId: 'd3', status: 'DELETE_COMPLETE', kind: 'UNDEPLOY_RESOURCE' as const, resources: res('bbbbbbb') },
    { deploymentId: 'd2', status: 'UPDATE_COMPLETE', kind: 'PLAN_APPLY' as const, resources: res('bbbbbbb') },
    { deploymentId: 'd1', status: 'CREATE_COMPLETE', kind: 'DEPLOY' as const, resources: res('aaaaaaa') },
  ];
  it('is the newest successful deploy before the failed one', () => {
    expect(lastGoodVersions(history, 'd4')).toEqual({ web: { componentVersion: 'build-bbbbbbb', version: 'bbbbbbb' } });
  });
  it('is none for a successful deployment, an unknown one, or when nothing succeeded before', () => {
    expect(lastGoodVersions(history, 'd2')).toBeNull();
    expect(lastGoodVersions(history, 'nope')).toBeNull();
    expect(lastGoodVersions([history[0]!], 'd4')).toBeNull();
  });
});
