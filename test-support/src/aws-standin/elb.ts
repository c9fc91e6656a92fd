import { AwsError, list, members, queryAnswer, type Answer, type Params } from './protocol.js';
import { lbArn, type StandinWorld } from './state.js';

export const ELB_NS = 'http://elasticloadbalancing.amazonaws.com/doc/2012-06-01/';
export const ELBV2_NS = 'http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/';
const tagMembers = (tags: Record<string, string>) => members(Object.entries(tags).map(([Key, Value]) => ({ Key, Value })));

/** Classic Elastic Load Balancing (API 2012-06-01, AWS query). */
export function elb(w: StandinWorld, region: string, action: string, p: Params): Answer {
  const classic = w.lbs.filter((lb) => lb.region === region && lb.kind === 'classic');
  switch (action) {
    case 'DescribeLoadBalancers': {
      const names = list(p, 'LoadBalancerNames');
      const found = classic.filter((lb) => !names.length || names.includes(lb.name));
      const missing = names.find((n) => !classic.some((lb) => lb.name === n));
      if (missing) throw new AwsError(400, 'LoadBalancerNotFound', `There is no ACTIVE Load Balancer named '${missing}'`);
      return queryAnswer(ELB_NS, action, {
        LoadBalancerDescriptions: members(
          found.map((lb) => ({
            LoadBalancerName: lb.name,
            DNSName: `${lb.name}-1234567890.${region}.elb.amazonaws.com`,
            CanonicalHostedZoneNameID: 'Z32O12XQLNTSW2',
            ListenerDescriptions: members([
              { Listener: { Protocol: 'HTTP', LoadBalancerPort: 80, InstanceProtocol: 'HTTP', InstancePort: 80 }, PolicyNames: '' },
            ]),
            AvailabilityZones: members([`${region}a`]),
            Instances: '',
            CreatedTime: '2026-01-05T09:00:00.000Z',
            Scheme: 'internet-facing',
          })),
        ),
      });
    }
    case 'DescribeTags': {
      const names = list(p, 'LoadBalancerNames');
      return queryAnswer(ELB_NS, action, {
        TagDescriptions: members(classic.filter((lb) => names.includes(lb.name)).map((lb) => ({ LoadBalancerName: lb.name, Tags: tagMembers(lb.tags) }))),
      });
    }
    default:
      throw new AwsError(400, 'InvalidAction', `Could not find operation ${action} for version 2012-06-01`);
  }
}

/** Elastic Load Balancing v2 (API 2015-12-01, AWS query): application, network and gateway load balancers. */
export function elbv2(w: StandinWorld, region: string, action: string, p: Params): Answer {
  const modern = w.lbs.filter((lb) => lb.region === region && lb.kind !== 'classic');
  switch (action) {
    case 'DescribeLoadBalancers': {
      const arns = list(p, 'LoadBalancerArns');
      const names = list(p, 'Names');
      const found = modern.filter((lb) => (!arns.length || arns.includes(lbArn(w, lb))) && (!names.length || names.includes(lb.name)));
      return queryAnswer(ELBV2_NS, action, {
        LoadBalancers: members(
          found.map((lb) => ({
            LoadBalancerArn: lbArn(w, lb),
            DNSName: `${lb.name}-1234567890.${region}.elb.amazonaws.com`,
            CanonicalHostedZoneId: 'Z32O12XQLNTSW2',
            CreatedTime: '2026-01-05T09:00:00.000Z',
            LoadBalancerName: lb.name,
            Scheme: 'internet-facing',
            VpcId: 'vpc-3ac0fb5f',
            State: { Code: 'active' },
            Type: lb.kind,
            AvailabilityZones: members([{ ZoneName: `${region}a`, SubnetId: 'subnet-8360a9e7' }]),
            IpAddressType: 'ipv4',
          })),
        ),
      });
    }
    case 'DescribeTags': {
      const arns = list(p, 'ResourceArns');
      return queryAnswer(ELBV2_NS, action, {
        TagDescriptions: members(modern.filter((lb) => arns.includes(lbArn(w, lb))).map((lb) => ({ ResourceArn: lbArn(w, lb), Tags: tagMembers(lb.tags) }))),
      });
    }
    default:
      throw new AwsError(400, 'InvalidAction', `Could not find operation ${action} for version 2015-12-01`);
  }
}
