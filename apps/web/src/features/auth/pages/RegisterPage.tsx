import { useState } from 'react';
import { SignUpBody } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { AuthLayout } from '../components/AuthLayout';
import { SignUpForm } from '../components/SignUpForm';
import { MailSent } from '../components/MailSent';
import { useSignUp } from '../api/sign-up';

/** /register (spec §2.3): step 1 the form, step 2 the e-mail-sent screen. */
export default function RegisterPage() {
  const signUp = useSignUp();
  const [sentTo, setSentTo] = useState<string | null>(null);

  if (sentTo) {
    return (
      <AuthLayout title="Verify your e-mail" welcomeStep={2} welcomeEmail={sentTo}>
        <MailSent lines="We sent a verification link to:" email={sentTo} />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Create your account" subtitle="Start delivering to your cloud in minutes.">
      <SignUpForm
        schema={SignUpBody}
        loading={signUp.isPending}
        onSubmit={(body) =>
          signUp.mutateAsync(body).then(
            () => setSentTo(body.username),
            (e) => {
              toast.apiError(e);
              throw e;
            },
          )
        }
      />
    </AuthLayout>
  );
}
