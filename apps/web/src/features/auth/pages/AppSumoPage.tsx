import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { AppSumoSignUpForm } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { AuthLayout } from '../components/AuthLayout';
import { SignUpForm } from '../components/SignUpForm';
import { MailSent } from '../components/MailSent';
import { signUp } from '../api/sign-up';
import { applyPromoCode } from '../api/apply-promo-code';
import { releasePromoCode } from '../api/release-promo-code';

/**
 * /appsumo (spec §2.3): sign-up with a promotional code (one year of the Pro plan).
 * The code is applied first; when the sign-up then fails the code is released and the server message shown.
 */
export default function AppSumoPage() {
  const [params] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = async ({ appSumoCode, ...body }: AppSumoSignUpForm) => {
    setBusy(true);
    try {
      try {
        await applyPromoCode({ code: appSumoCode, email: body.username });
      } catch (e) {
        toast.apiError(e);
        throw e;
      }
      try {
        await signUp(body);
      } catch (e) {
        await releasePromoCode(body.username).catch(() => undefined);
        toast.apiError(e);
        throw e;
      }
      setSentTo(body.username);
    } finally {
      setBusy(false);
    }
  };

  if (sentTo) {
    return (
      <AuthLayout title="You've Got Mail!" welcomeStep={2} welcomeEmail={sentTo}>
        <MailSent lines="We sent a confirmation link to:" email={sentTo} />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Redeem your AppSumo code" subtitle="Create your account and get one year of the Pro plan.">
      <SignUpForm schema={AppSumoSignUpForm} withCode initialEmail={params.get('email') ?? ''} loading={busy} submitLabel="Sign Up" onSubmit={submit} />
    </AuthLayout>
  );
}
