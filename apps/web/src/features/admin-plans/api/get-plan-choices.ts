import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PaymentPlan } from '@gantry/contracts';
import { http } from '../../../api/http';
import { adminPlanKeys } from './keys';

/** The plans the admin can choose from, as select options. */
export const planChoicesQuery = () =>
  queryOptions({
    queryKey: adminPlanKeys.plans(),
    queryFn: () => http.get<{ paymentPlans: PaymentPlan[] }>('/ms-project/payment-plans'),
    select: (d) => d.paymentPlans.map((p) => ({ value: p.id, label: p.name })),
    staleTime: 5 * 60_000,
  });

export const usePlanChoices = () => useQuery(planChoicesQuery());
