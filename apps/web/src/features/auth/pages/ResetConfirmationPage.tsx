import { useParams } from 'react-router';
import { AuthLayout } from '../components/AuthLayout';
import { MailSent } from '../components/MailSent';

/** /account/reset-confirmation/{email} (spec §2.4): the recovery link was sent. */
export default function ResetConfirmationPage() {
  const { email = '' } = useParams();
  return (
    <AuthLayout title="You've Got Mail!">
      <MailSent lines="We sent a recovery link to:" email={email} />
    </AuthLayout>
  );
}
