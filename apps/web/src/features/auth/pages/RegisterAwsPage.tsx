import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { SignUpBody } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { AuthLayout } from '../components/AuthLayout';
import { SignUpForm } from '../components/SignUpForm';
import { MailSent } from '../components/MailSent';
import { useSignUp } from '../api/sign-up';

/** /register/aws (spec §2.3): the marketplace sign-up; ?email prefills, ?code comes from the marketplace. */
export default function RegisterAwsPage() {
  const [params] = useSearchParams();
  const signUp = useSignUp();
  const [sentTo, setSentTo] = useState<string | null>(null);

  if (sentTo) {
    return (
      <AuthLayout title="Email Verification" welcomeStep={2} welcomeEmail={sentTo}>
        <MailSent lines={<>We sent a verification link to the e-mail below. Please follow it to complete your registration.</>} email={sentTo} />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Create your account" subtitle="Sign up through the AWS Marketplace.">
      <SignUpForm
        schema={SignUpBody}
        initialEmail={params.get('email') ?? ''}
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
