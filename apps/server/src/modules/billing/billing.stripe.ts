export interface CheckoutRequest {
  projectId: string;
  planId: string;
  /** Shown on the checkout page. */
  productName: string;
  /** In cents. */
  amount: number;
  /** Absent: a one-time payment. */
  interval?: 'month' | 'year';
  frequency: 'monthly' | 'yearly';
  successUrl: string;
  cancelUrl: string;
  customerEmail: string;
}

/** The card payment provider, narrowed to what billing does with it. */
export interface CardPayments {
  checkout(r: CheckoutRequest): Promise<{ url: string }>;
  /** Verifies the signature over the raw body and answers the event; throws when it does not match. */
  verifyEvent(rawBody: string, signature: string): { id: string; type: string; created: number; data: { object: unknown } };
  /** Renew at period end or not (the recurring payment toggle of a card subscription). */
  setRenewal(subscriptionId: string, enabled: boolean): Promise<void>;
}

/**
 * Stripe Checkout through the official SDK; `apiBase` points it at another host (a stand-in).
 * The SDK is loaded here, only when Stripe is configured (issue 14: start-up).
 */
export async function createStripePayments(o: { secretKey: string; webhookSecret: string; apiBase?: string }): Promise<CardPayments> {
  const { default: Stripe } = await import('stripe');
  const base = o.apiBase ? new URL(o.apiBase) : null;
  const stripe = new Stripe(o.secretKey, {
    ...(base && { host: base.hostname, port: base.port || (base.protocol === 'https:' ? 443 : 80), protocol: base.protocol === 'http:' ? 'http' : 'https' }),
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Gantry' },
  });
  return {
    async checkout(r) {
      const metadata = { projectId: r.projectId, planId: r.planId, frequency: r.frequency };
      const session = await stripe.checkout.sessions.create({
        mode: r.interval ? 'subscription' : 'payment',
        client_reference_id: r.projectId,
        customer_email: r.customerEmail,
        metadata,
        ...(r.interval && { subscription_data: { metadata } }),
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: r.amount,
              product_data: { name: r.productName },
              ...(r.interval && { recurring: { interval: r.interval } }),
            },
          },
        ],
        success_url: r.successUrl,
        cancel_url: r.cancelUrl,
      });
      if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
      return { url: session.url };
    },
    verifyEvent: (rawBody, signature) => stripe.webhooks.constructEvent(rawBody, signature, o.webhookSecret),
    async setRenewal(subscriptionId, enabled) {
      await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: !enabled });
    },
  };
}
