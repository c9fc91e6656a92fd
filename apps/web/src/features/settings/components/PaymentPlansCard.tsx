import { Badge, Button, Card, Group, List, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { describeLimitations, SPECIAL_DEAL_PRICE, type PaymentPlan } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { EXTERNAL_LINKS } from '../../../ui/links';
import { Permitted } from '../../../ui/Permitted';
import { usePaymentPlans } from '../api/get-payment-plans';
import { useStartCheckout } from '../api/start-checkout';

type Frequency = 'monthly' | 'yearly';

/** Spec §9: only the plan named Business is listed. */
export const listedPlans = (plans: PaymentPlan[]) => plans.filter((p) => p.name === 'Business');
/**
 * Business gets 'Free Pilot', any other plan 'Let's Talk'; both open the booking page. Booking is a step
 * towards the project's plan, which is its owners' (spec §6: billing), so it is refused like Subscribe.
 */
export const planCallToAction = (plan: PaymentPlan) => (plan.name === 'Business' ? 'Free Pilot' : "Let's Talk");

/**
 * Payment plans with a monthly/yearly toggle (default yearly); prices per month. With card payments
 * (Stripe) a plan and the special deal can be bought here; without, the instance admin assigns plans.
 */
export function PaymentPlansCard({
  projectId,
  cardPayments,
  instanceAdmin,
  mayRedeem,
}: {
  projectId: string;
  cardPayments: boolean;
  instanceAdmin: boolean;
  mayRedeem: boolean;
}) {
  const plans = usePaymentPlans();
  const [frequency, setFrequency] = useState<Frequency>('yearly');
  const listed = listedPlans(plans.data ?? []);
  const checkout = useStartCheckout(projectId);
  const buying = checkout.isPending ? checkout.variables : null;
  const buy = (body: Parameters<typeof checkout.mutate>[0]) => checkout.mutate(body, { onError: (e) => toast.apiError(e) });

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
                <Group grow mt="xs">
                  {cardPayments && (
                    <Permitted action="manageProject">
                      {(disabled) => (
                        <Button
                          loading={buying?.kind === 'plan' && buying.planId === plan.id}
                          disabled={disabled}
                          onClick={() => buy({ kind: 'plan', planId: plan.id, frequency })}
                        >
                          Subscribe
                        </Button>
                      )}
                    </Permitted>
                  )}
                  <Permitted action="manageProject">
                    {(disabled) =>
                      disabled ? (
                        <Button disabled>{planCallToAction(plan)}</Button>
                      ) : (
                        <Button component="a" href={EXTERNAL_LINKS.booking} target="_blank" rel="noreferrer" variant={cardPayments ? 'default' : 'filled'}>
                          {planCallToAction(plan)}
                        </Button>
                      )
                    }
                  </Permitted>
                </Group>
              </Stack>
            </Card>
          ))}
          <Card withBorder radius="md" padding="lg" style={{ borderStyle: 'dashed' }} data-testid="special-deal">
            <Stack gap="sm" justify="center" h="100%">
              <Badge variant="light" color="violet" w="fit-content">
                Special deal
              </Badge>
              <Group gap={4} align="baseline">
                <Text fz={32} fw={800}>
                  ${SPECIAL_DEAL_PRICE}
                </Text>
                <Text c="dimmed" size="sm">
                  for 1 year
                </Text>
              </Group>
              <Text fw={600}>One year of the Professional plan, paid once.</Text>
              <Text size="sm" c="dimmed">
                {cardPayments
                  ? 'No renewal: after the year the project returns to the Starter plan unless you choose a plan.'
                  : instanceAdmin
                    ? 'Give it to this project on Project plans, or redeem a promo code in the Promo code card.'
                    : mayRedeem
                      ? 'Ask the instance admin for it, or redeem a promo code in the Promo code card.'
                      : 'Ask the instance admin for it.'}
              </Text>
              {cardPayments && (
                <Permitted action="manageProject">
                  {(disabled) => (
                    <Button
                      variant="light"
                      color="violet"
                      loading={buying?.kind === 'special-deal'}
                      disabled={disabled}
                      onClick={() => buy({ kind: 'special-deal' })}
                    >
                      Get the deal
                    </Button>
                  )}
                </Permitted>
              )}
            </Stack>
          </Card>
        </SimpleGrid>
      )}
    </Card>
  );
}
