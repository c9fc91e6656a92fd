import { describe, it, expect, beforeEach, afterAll } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { EC2Client, DescribeInstancesCommand, StartInstancesCommand, StopInstancesCommand, type InstanceStateName } from '@aws-sdk/client-ec2';
import { RDSClient, DescribeDBInstancesCommand, StartDBInstanceCommand, StopDBInstanceCommand } from '@aws-sdk/client-rds';
import { AutoScalingClient, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { changeTaggedState } from './index.js';

/** EC2 and RDS through SDK stubs answering in the APIs' real response shapes (DESIGN §7). */
const ec2 = mockClient(EC2Client);
const rds = mockClient(RDSClient);
const asg = mockClient(AutoScalingClient);
afterAll(() => {
  ec2.restore();
  rds.restore();
  asg.restore();
});
beforeEach(() => {
  ec2.reset();
  rds.reset();
  asg.reset();
  asg.on(DescribeAutoScalingGroupsCommand).resolves({ AutoScalingGroups: [] });
});

const target = {
  region: 'eu-west-1',
  credentials: { accessKeyId: 'ASIAROLE', secretAccessKey: 'role-secret', sessionToken: 'token' },
  tagKey: 'gantry:cost-optimizer',
  tagValue: 'stage-1',
};
const instance = (id: string, state: InstanceStateName) => ({
  InstanceId: id,
  InstanceType: 't3.micro' as const,
  State: { Code: state === 'running' ? 16 : 80, Name: state },
});
const db = (id: string, status: string, tagged: boolean) => ({
  DBInstanceIdentifier: id,
  DBInstanceClass: 'db.t3.micro',
  Engine: 'postgres',
  DBInstanceStatus: status,
  TagList: tagged ? [{ Key: 'gantry:cost-optimizer', Value: 'stage-1' }] : [{ Key: 'team', Value: 'other' }],
});

describe('start or stop the tagged resources', () => {
  it('stops the running tagged instances (two pages) and the available tagged databases', async () => {
    ec2
      .on(DescribeInstancesCommand)
      .resolvesOnce({ Reservations: [{ ReservationId: 'r-1', Instances: [instance('i-0aaa', 'running')] }], NextToken: 'page2' })
      .resolvesOnce({ Reservations: [{ ReservationId: 'r-2', Instances: [instance('i-0bbb', 'running')] }] });
    ec2.on(StopInstancesCommand).resolves({ StoppingInstances: [{ InstanceId: 'i-0aaa' }, { InstanceId: 'i-0bbb' }] });
    rds
      .on(DescribeDBInstancesCommand)
      .resolves({ DBInstances: [db('shop-db', 'available', true), db('other-db', 'available', false), db('busy-db', 'modifying', true)] });
    rds.on(StopDBInstanceCommand).resolves({ DBInstance: { DBInstanceIdentifier: 'shop-db', DBInstanceStatus: 'stopping' } });
    expect(await changeTaggedState(target, 'stop')).toEqual({ ec2: ['i-0aaa', 'i-0bbb'], asg: [], rds: ['shop-db'] });
    const filters = ec2.commandCalls(DescribeInstancesCommand)[0]!.args[0].input.Filters;
    expect(filters).toEqual([
      { Name: 'tag:gantry:cost-optimizer', Values: ['stage-1'] },
      { Name: 'instance-state-name', Values: ['running'] },
    ]);
    expect(ec2.commandCalls(DescribeInstancesCommand)[1]!.args[0].input.NextToken).toBe('page2');
    expect(ec2.commandCalls(StopInstancesCommand)[0]!.args[0].input).toEqual({ InstanceIds: ['i-0aaa', 'i-0bbb'] });
    expect(rds.commandCalls(StopDBInstanceCommand).map((c) => c.args[0].input)).toEqual([{ DBInstanceIdentifier: 'shop-db' }]);
    expect(ec2.commandCalls(StartInstancesCommand)).toHaveLength(0);
    expect(await ec2.commandCalls(StopInstancesCommand)[0]!.thisValue.config.credentials()).toMatchObject({ accessKeyId: 'ASIAROLE' });
  });

  it('starts only what is stopped, and calls nothing when nothing matches', async () => {
    ec2.on(DescribeInstancesCommand).resolves({ Reservations: [] });
    rds.on(DescribeDBInstancesCommand).resolves({ DBInstances: [db('shop-db', 'stopped', true), db('up-db', 'available', true)] });
    rds.on(StartDBInstanceCommand).resolves({});
    expect(await changeTaggedState(target, 'start')).toEqual({ ec2: [], asg: [], rds: ['shop-db'] });
    expect(ec2.commandCalls(DescribeInstancesCommand)[0]!.args[0].input.Filters![1]).toEqual({ Name: 'instance-state-name', Values: ['stopped'] });
    expect(ec2.commandCalls(StartInstancesCommand)).toHaveLength(0);
    expect(rds.commandCalls(StartDBInstanceCommand).map((c) => c.args[0].input)).toEqual([{ DBInstanceIdentifier: 'shop-db' }]);
  });
});
