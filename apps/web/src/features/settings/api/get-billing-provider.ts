import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BillingProvider } from '@gantry/contracts';
import { http } from '../../../api/http';
import { billingKeys } from './keys';

/** Whether this instance takes card payments (Stripe Checkout) or its admin assigns plans. */
export const getBillingProvider = () => http.get<BillingProvider>('/ms-project/billing/provider');

export const billingProviderQuery = () => queryOptions({ queryKey: billingKeys.provider(), queryFn: getBillingProvider, staleTime: 5 * 60_000 });

export const useBillingProvider = () => useQuery(billingProviderQuery());
