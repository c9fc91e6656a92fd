import { Alert, Anchor, Grid, Stack } from '@mantine/core';
import { IconInfoCircle, IconCircleCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { useProjectPermission } from '../../../api/permissions';
import { useProfile } from '../../../api/session';
import { useBillingProvider } from '../api/get-billing-provider';
import { PaymentPlansCard } from './PaymentPlansCard';
import { PaymentsCard } from './PaymentsCard';
import { PromoCodeCard } from './PromoCodeCard';
import { SubscriptionCard } from './SubscriptionCard';
import { SubscriptionHistoryCard } from './SubscriptionHistoryCard';

/** Billing (spec §2.9, §9): current subscription, recurring payment, promo code, plans and history. */
export function BillingTab({ projectId }: { projectId: string }) {
  const provider = useBillingProvider();
  const cardPayments = provider.data?.cardPayments ?? false;
  const [params] = useSearchParams();
  const instanceAdmin = useProfile()?.isInstanceAdmin ?? false;
  // a promo code is redeemed by the project's owners only (the card refuses others): not offered to the rest
  const mayRedeem = useProjectPermission().can('manageProject');
  return (
    <Stack gap="lg">
      {params.get('checkout') === 'success' && (
        <Alert color="teal" icon={<IconCircleCheck size={18} />} title="Payment received">
          Thank you. Your subscription changes as soon as Stripe confirms the payment.
        </Alert>
      )}
      {provider.data &&
        !cardPayments &&
        (instanceAdmin ? (
          <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} title="You manage the plans of this instance">
            This Gantry instance does not take card payments. As its instance admin, you give this project its plan on{' '}
            <Anchor component={Link} to="/admin/plans" inherit>
              Project plans
            </Anchor>
            .
          </Alert>
        ) : (
          <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} title="Plans are managed by the instance admin">
            This Gantry instance does not take card payments. Ask your instance admin to change this project&apos;s plan
            {mayRedeem ? ', or redeem a promo code.' : '.'}
          </Alert>
        ))}
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <SubscriptionCard projectId={projectId} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <PromoCodeCard projectId={projectId} />
        </Grid.Col>
      </Grid>
      <PaymentPlansCard projectId={projectId} cardPayments={cardPayments} instanceAdmin={instanceAdmin} mayRedeem={mayRedeem} />
      <SubscriptionHistoryCard projectId={projectId} />
      {cardPayments && <PaymentsCard projectId={projectId} />}
    </Stack>
  );
}
