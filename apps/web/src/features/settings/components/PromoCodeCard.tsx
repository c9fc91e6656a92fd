import { Button, Card, Group, Text, TextInput, Title } from '@mantine/core';
import { RedeemPromoBody } from '@gantry/contracts';
import { useProjectPermission } from '../../../api/permissions';
import { toast } from '../../../api/toast';
import { Permitted } from '../../../ui/Permitted';
import { useZodForm } from '../../../ui/use-zod-form';
import { useRedeemPromoCode } from '../api/redeem-promo-code';

/** Redeem a promo code (field redeemCode, required): one year of the Professional plan. */
export function PromoCodeCard({ projectId }: { projectId: string }) {
  const form = useZodForm(RedeemPromoBody, { redeemCode: '' });
  const redeem = useRedeemPromoCode(projectId);
  // A member who may not redeem is not asked to type a code either.
  const refused = !useProjectPermission().can('manageProject');

  const submit = form.onSubmit(({ redeemCode }) =>
    redeem.mutate(redeemCode, {
      onSuccess: () => {
        toast.success('You have successfully redeemed a promo code');
        form.reset({ redeemCode: '' });
      },
      onError: (e) => toast.apiError(e),
    }),
  );

  return (
    <Card withBorder radius="md" padding="lg" h="100%">
      <Title order={4} fz="md">
        Promo code
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        A promo code activates one year of the Professional plan for this project.
      </Text>
      <form onSubmit={submit} noValidate>
        <Group align="flex-start" gap="sm">
          <TextInput label="Promo code" placeholder="XXXX-XXXX" style={{ flex: 1 }} disabled={refused} {...form.field('redeemCode')} />
          <Permitted action="manageProject">
            {(disabled) => (
              <Button type="submit" mt={25} loading={redeem.isPending} disabled={disabled}>
                Redeem
              </Button>
            )}
          </Permitted>
        </Group>
      </form>
    </Card>
  );
}
