import { Grid, Stack } from '@mantine/core';
import { PaymentPlansCard } from './PaymentPlansCard';
import { PromoCodeCard } from './PromoCodeCard';
import { SubscriptionCard } from './SubscriptionCard';
import { SubscriptionHistoryCard } from './SubscriptionHistoryCard';

/** Billing (spec §2.9, §9): current subscription, recurring payment, promo code, plans and history. */
export function BillingTab({ projectId }: { projectId: string }) {
  return (
    <Stack gap="lg">
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <SubscriptionCard projectId={projectId} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <PromoCodeCard projectId={projectId} />
        </Grid.Col>
      </Grid>
      <PaymentPlansCard />
      <SubscriptionHistoryCard projectId={projectId} />
    </Stack>
  );
}
