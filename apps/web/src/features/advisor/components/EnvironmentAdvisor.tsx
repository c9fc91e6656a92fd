import { Anchor, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconDatabase, IconLoadBalancer, IconServer2 } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ENVIRONMENT_TAG_KEY, advisorSummaries, type AdvisorStats } from '@gantry/contracts';
import { errorMessage } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { useAdvisorResult } from '../api/advisor';
import { advisorNavigationState, ageText } from '../lib/advisor-state';

type Env = { projectId: string; stageId: string; awsAccountId: string; awsRegion: string };
const envQuery = (e: Omit<Env, 'projectId'>) => ({ awsAccountId: e.awsAccountId, awsRegion: e.awsRegion, tagKey: ENVIRONMENT_TAG_KEY, tagValue: e.stageId });

function Lines({ stats, size }: { stats: AdvisorStats; size: 'xs' | 'sm' }) {
  const s = advisorSummaries(stats);
  const line = (icon: React.ReactNode, text: string, flagged: boolean, testId: string) => (
    <Group gap={6} wrap="nowrap" align="flex-start" key={testId}>
      {/* the icon keeps its size beside a text that wraps onto two lines */}
      <span style={{ flexShrink: 0, display: 'flex', marginTop: size === 'sm' ? 3 : 1 }}>{icon}</span>
      <Text size={size} c={flagged ? 'orange.8' : 'dimmed'} data-testid={testId}>
        {text}
      </Text>
    </Group>
  );
  const lbIdle = stats.elb.classicELBStats.idleLoadBalancers.length + stats.elb.nonClassicELBStats.idleLoadBalancers.length;
  return (
    <Stack gap={4}>
      {line(<IconServer2 size={14} />, s.ec2, stats.ec2.lowUtilizationInstances.length > 0, 'advisor-ec2-summary')}
      {size === 'sm' ? (
        <>
          {line(<IconLoadBalancer size={14} />, s.classicElb, stats.elb.classicELBStats.idleLoadBalancers.length > 0, 'advisor-classic-summary')}
          {line(<IconLoadBalancer size={14} />, s.nonClassicElb, stats.elb.nonClassicELBStats.idleLoadBalancers.length > 0, 'advisor-nonclassic-summary')}
        </>
      ) : (
        line(<IconLoadBalancer size={14} />, `${lbIdle} load balancers appear idle`, lbIdle > 0, 'advisor-elb-summary')
      )}
      {line(<IconDatabase size={14} />, s.rds, stats.rds.idleRelationalDBResources.length > 0, 'advisor-rds-summary')}
    </Stack>
  );
}

/** The environment card's Waste Advisor summary (infrastructure-builder §2): the cached result for the resources tagged with the environment. */
export function AdvisorSummary(env: Omit<Env, 'projectId'>) {
  const projectId = useCurrentProject()?.id ?? '';
  const r = useAdvisorResult(projectId, envQuery(env));
  return (
    <Stack gap={4} mt="sm" data-testid="advisor-summary">
      <Text size="xs" fw={600} c="dimmed" tt="uppercase">
        Waste Advisor
      </Text>
      {r.isPending ? (
        <Skeleton height={44} radius="sm" />
      ) : r.data ? (
        <Lines stats={r.data.stats} size="xs" />
      ) : (
        <Text size="xs" c="dimmed">
          {errorMessage(r.error, 'Statistics are not available right now')}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The environment page's statistics panel (infrastructure-builder §2): the EC2, load balancer and RDS results for the
 * environment's resources, their age, and a link to /tools/advisor carrying the account, region and tag.
 */
export function AdvisorStatsPanel(env: Env) {
  const query = envQuery(env);
  const r = useAdvisorResult(env.projectId, query);
  return (
    <Stack gap="sm">
      {r.isPending ? (
        <Skeleton height={80} radius="sm" />
      ) : r.data ? (
        <>
          <Lines stats={r.data.stats} size="sm" />
          <Text size="xs" c="dimmed">
            Resources tagged {ENVIRONMENT_TAG_KEY} = this environment · fetched {ageText(r.data.ageSeconds)}
          </Text>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {errorMessage(r.error, 'Something went wrong while getting statistics!')}
        </Text>
      )}
      <Anchor component={Link} to="/tools/advisor" size="sm" state={advisorNavigationState(query)} data-testid="open-advisor">
        Open the Waste Advisor
      </Anchor>
    </Stack>
  );
}
