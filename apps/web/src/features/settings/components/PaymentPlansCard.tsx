import { Badge, Button, Card, Group, List, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { describeLimitations, type PaymentPlan } from '@gantry/contracts';
import { EXTERNAL_LINKS } from '../../../ui/links';
import { usePaymentPlans } from '../api/get-payment-plans';

type Frequency = 'monthly' | 'yearly';

/** Spec §9: only the plan named Business is listed. */
export const listedPlans = (plans: PaymentPlan[]) => plans.filter((p) => p.name === 'Business');
/** Business gets 'Free Pilot', any other plan 'Let's Talk'; both open the booking page. */
export const planCallToAction = (plan: PaymentPlan) => (plan.name === 'Business' ? 'Free Pilot' : "Let's Talk");

/** Payment plans with a monthly/yearly toggle (default yearly); prices per month. */
export function PaymentPlansCard() {
  const plans = usePaymentPlans();
  const [frequency, setFrequency] = useState<Frequency>('yearly');
  const listed = listedPlans(plans.data ?? []);

  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="md">
        <div>
          <Title order={4} fz="md">
            Payment plans
          </Title>
          <Text size="sm" c="dimmed">
            Prices are per month.
          </Text>
        </div>
        <SegmentedControl
          aria-label="Billing frequency"
          value={frequency}
          onChange={(v) => setFrequency(v as Frequency)}
          data={[
            { value: 'monthly', label: 'Monthly' },
            { value: 'yearly', label: 'Yearly' },
          ]}
        />
      </Group>
      {plans.isPending ? (
        <Skeleton height={180} radius="md" />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {listed.map((plan) => (
            <Card key={plan.id} withBorder radius="md" padding="lg" bg="indigo.0" data-testid="payment-plan">
              <Stack gap="sm">
                <Group justify="space-between">
                  <Text fw={700} size="lg">
                    {plan.name}
                  </Text>
                  {frequency === 'yearly' && (
                    <Badge color="teal" variant="light">
                      Billed yearly
                    </Badge>
                  )}
                </Group>
                <Group gap={4} align="baseline">
                  <Text fz={32} fw={800}>
                    ${plan.pricing[frequency]}
                  </Text>
                  <Text c="dimmed" size="sm">
                    / month
                  </Text>
                </Group>
                <List
                  spacing={6}
                  size="sm"
                  icon={
                    <ThemeIcon size={18} radius="xl" color="teal" variant="light">
                      <IconCheck size={12} />
                    </ThemeIcon>
                  }
                >
                  {describeLimitations(plan.limitations).map((l) => (
                    <List.Item key={l}>{l}</List.Item>
                  ))}
                </List>
                <Button component="a" href={EXTERNAL_LINKS.booking} target="_blank" rel="noreferrer" mt="xs">
                  {planCallToAction(plan)}
                </Button>
              </Stack>
            </Card>
          ))}
          <Card withBorder radius="md" padding="lg" style={{ borderStyle: 'dashed' }}>
            <Stack gap="xs" justify="center" h="100%">
              <Badge variant="light" color="violet" w="fit-content">
                Special deal
              </Badge>
              <Text fw={700}>1 year of the Professional plan for 69 USD</Text>
              <Text size="sm" c="dimmed">
                Got a promo code? Redeem it below to activate one year of the Professional plan.
              </Text>
            </Stack>
          </Card>
        </SimpleGrid>
      )}
    </Card>
  );
}
