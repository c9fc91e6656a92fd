import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startAwsStandin, seedWasteWorld, type AwsStandin } from '@gantry/test-support';
import {
  createTestApp,
  grantPlan,
  connectAwsAccount,
  registerUser,
  createProject,
  bearer,
  type TestApp,
  acceptingCloudVerifier,
} from '../../../test/helpers.js';
import { changeTaggedState } from '../../integrations/aws-resources/index.js';
import { sessionFromEnv } from '../../integrations/aws-resources/session.js';
import { createScheduleRunsStore } from './schedule-runs.store.js';
import { createScheduler, type Execute } from './schedules.scheduler.js';

/**
 * The scheduler with a clock the test moves, two workers on one database, acting on the AWS
 * stand-in through the real SDK calls: stop fires, start fires, nothing fires twice.
 */
const ACCOUNT = '123456789012';
let clock = Date.parse('2030-01-07T07:00:00Z'); // a Monday
let aws: AwsStandin;
let t: TestApp;
let owner: { idToken: string };
let projectId: string;
const executed: string[] = [];

const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-cloud-cost-optimizer/projects/${projectId}${url}`, headers: bearer(owner.idToken), payload });
const world = () => ({
  ec2: Object.fromEntries(aws.world.instances.map((i) => [i.id, i.state])),
  asg: aws.world.asgs.map((g) => `${g.name} ${g.desiredCapacity}/${g.minSize}/${g.maxSize}`),
  rds: Object.fromEntries(aws.world.dbs.map((d) => [d.id, d.status])),
});

/** A worker: its own scheduler over the same database, the real AWS calls. */
function worker(name: string) {
  const execute: Execute = async (schedule, action, only) => {
    executed.push(`${name} ${action}${only ? ' rds' : ''}`);
    const env = await t.app.services.cloudAccounts.credentialsFor(schedule.projectId, 'aws', schedule.awsAccountId);
    return changeTaggedState(
      { ...sessionFromEnv(schedule.awsRegion, env), tagKey: schedule.resourcesTagKey, tagValue: schedule.resourcesTagValue },
      action,
      only,
    );
  };
  return createScheduler({ runs: createScheduleRunsStore(t.app.services.database.db), execute, now: () => new Date(clock) });
}

beforeAll(async () => {
  aws = await startAwsStandin({ world: seedWasteWorld({}) });
  Object.assign(process.env, aws.env());
  // the app's own scheduler ticks on its own time only when asked (tickEveryMs is a day)
  t = await createTestApp(
    {},
    { overrides: { cloudAccounts: { verifier: acceptingCloudVerifier }, schedules: { now: () => new Date(clock), tickEveryMs: 86_400_000 } } },
  );
  owner = await registerUser(t, 'sched-clock@example.com');
  projectId = await createProject(t, owner.idToken, 'Clock');
  await grantPlan(t, owner.idToken, projectId);
  await connectAwsAccount(t, owner.idToken, projectId, ACCOUNT);
});
afterAll(async () => {
  await t?.close();
  await aws?.close();
});

describe('the saving schedule scheduler', () => {
  let id: string;

  it('lists the resources with their Pricing data, and tags the chosen ones on create', async () => {
    const res = await call('GET', `/resources?awsAccountId=${ACCOUNT}&awsRegion=eu-west-1`);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r.ec2.find((i: { id: string }) => i.id === 'i-0a00000000000idle')).toMatchObject({
      name: 'web-idle',
      state: 'running',
      running: true,
      instanceType: 't3.micro',
      price: 0.0104,
      ebsData: [{ volumeId: 'vol-0a0000000000idle', volumeType: 'gp3', sizeGb: 20, monthlyPrice: 1.6 }],
    });
    expect(r.asg[0]).toMatchObject({ id: 'workers', running: true, price: 0.0208, asgGroupCapacity: { desiredCapacity: 2, minSize: 1, maxSize: 4 } });
    expect(r.rds.find((d: { id: string }) => d.id === 'orders-db')).toMatchObject({
      running: true,
      instanceType: 'db.t3.medium',
      price: 0.068,
      storagePrice: 11.5,
    });

    const created = await call('POST', '/schedules', {
      name: 'office hours',
      startExpression: 'cron(0 8 ? * MON-FRI *)',
      stopExpression: 'cron(0 18 ? * MON-FRI *)',
      timezone: 'UTC',
      awsAccountId: ACCOUNT,
      awsRegion: 'eu-west-1',
      selectBy: 'RESOURCES',
      resources: [
        { type: 'ec2', id: 'i-0a00000000000busy' },
        { type: 'asg', id: 'workers' },
        { type: 'rds', id: 'orders-db' },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    id = created.json().id;
    const tag = created.json().resourcesTagValue;
    expect(created.json()).toMatchObject({ resourcesTagKey: 'gantry:cost-optimizer', selectBy: 'RESOURCES' });
    expect(aws.world.instances.find((i) => i.id === 'i-0a00000000000busy')!.tags['gantry:cost-optimizer']).toBe(tag);
    expect(aws.world.asgs[0]!.tags['gantry:cost-optimizer']).toBe(tag);
    expect(aws.world.dbs.find((d) => d.id === 'orders-db')!.tags['gantry:cost-optimizer']).toBe(tag);
    expect((await call('GET', `/schedules/${id}`)).json().resources).toHaveLength(3);
  });

  it('stop fires at its minute exactly once with two workers, and start restores everything', async () => {
    const a = worker('a');
    const b = worker('b');
    clock = Date.parse('2030-01-07T17:59:30Z');
    await Promise.all([a.tick(), b.tick()]);
    expect(executed).toEqual([]);

    clock = Date.parse('2030-01-07T18:00:05Z');
    await Promise.all([a.tick(), b.tick()]);
    clock = Date.parse('2030-01-07T18:00:40Z');
    await Promise.all([a.tick(), b.tick()]);
    expect(executed.filter((e) => e.endsWith(' stop'))).toHaveLength(1);
    expect(world()).toMatchObject({
      ec2: { 'i-0a00000000000busy': 'stopped', 'i-0a00000000000idle': 'running' },
      asg: ['workers 0/0/4'],
      rds: { 'orders-db': 'stopped', 'shop-db': 'available' },
    });

    clock = Date.parse('2030-01-08T08:00:10Z');
    await Promise.all([b.tick(), a.tick(), a.tick()]);
    expect(executed.filter((e) => e.endsWith(' start'))).toHaveLength(1);
    expect(world()).toMatchObject({ ec2: { 'i-0a00000000000busy': 'running' }, asg: ['workers 2/1/4'], rds: { 'orders-db': 'available' } });
    expect(aws.world.asgs[0]!.tags['gantry:saved-capacity']).toBeUndefined();

    const runs = (await call('GET', `/schedules/${id}/runs`)).json().runs;
    expect(runs.map((r: { action: string; trigger: string; status: string; scheduledFor: string }) => [r.action, r.trigger, r.status, r.scheduledFor])).toEqual(
      [
        ['start', 'SCHEDULE', 'SUCCEEDED', '2030-01-08T08:00:00.000Z'],
        ['stop', 'SCHEDULE', 'SUCCEEDED', '2030-01-07T18:00:00.000Z'],
      ],
    );
    expect(runs[1].resources).toEqual({ ec2: ['i-0a00000000000busy'], asg: ['workers'], rds: ['orders-db'] });
  });

  it('re-stops a DB instance AWS started by itself while the schedule sleeps, once an hour', async () => {
    const a = worker('a');
    const b = worker('b');
    clock = Date.parse('2030-01-08T18:00:01Z');
    await Promise.all([a.tick(), b.tick()]);
    expect(world().rds['orders-db']).toBe('stopped');
    executed.length = 0;
    // seven days later AWS starts it on its own
    aws.world.dbs.find((d) => d.id === 'orders-db')!.status = 'available';
    clock = Date.parse('2030-01-08T19:10:00Z');
    await Promise.all([a.tick(), b.tick()]);
    await Promise.all([a.tick(), b.tick()]);
    expect(executed).toHaveLength(1);
    expect(executed[0]).toMatch(/stop rds$/);
    expect(world().rds['orders-db']).toBe('stopped');
    const runs = (await call('GET', `/schedules/${id}/runs`)).json().runs;
    expect(runs[0]).toMatchObject({ trigger: 'RDS_RESTOP', action: 'stop', resources: { ec2: [], asg: [], rds: ['orders-db'] } });
  });

  it('Stop All / Start All run now and are recorded; a disabled schedule never fires', async () => {
    clock = Date.parse('2030-01-09T09:00:00Z');
    const started = await call('POST', `/schedules/${id}/actions`, { action: 'start' });
    expect(started.json()).toEqual({ ec2: ['i-0a00000000000busy'], asg: ['workers'], rds: ['orders-db'] });
    const disabled = await call('PATCH', `/schedules/${id}/state`, { state: 'DISABLED' });
    expect(disabled.json().state).toBe('DISABLED');
    executed.length = 0;
    clock = Date.parse('2030-01-09T18:00:30Z');
    await worker('a').tick();
    expect(executed).toEqual([]);
    expect((await call('GET', `/schedules/${id}/runs`)).json().runs[0]).toMatchObject({ trigger: 'MANUAL', action: 'start', status: 'SUCCEEDED' });
  });
});
