import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { Password, withConfirmation } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { useZodForm } from '../../../ui/use-zod-form';
import { AuthLayout } from '../components/AuthLayout';
import { PasswordField } from '../components/PasswordField';
import { useConfirmForgotPassword } from '../api/confirm-forgot-password';

const ResetForm = withConfirmation(z.object({ password: Password }));

/** /account/reset/{email}/{code} (spec §2.4): choose a new password from a recovery link. */
export default function ResetPasswordPage() {
  const { email = '', code = '' } = useParams();
  const navigate = useNavigate();
  const confirm = useConfirmForgotPassword();
  const form = useZodForm(ResetForm, { password: '', confirmPassword: '' });

  const submit = form.onSubmit(({ password }) =>
    confirm.mutate(
      { username: email, code, password },
      {
        onSuccess: () => {
          toast.success('Your password has been changed. You can now log in.');
          navigate('/login');
        },
        onError: (e) => toast.apiError(e),
      },
    ),
  );

  return (
    <AuthLayout title="Set a new password" subtitle="Choose a new password for your account.">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput label="Email" value={email} readOnly variant="filled" />
          <PasswordField label="New password" autoComplete="new-password" {...form.field('password')} />
          <PasswordField label="Confirm password" autoComplete="new-password" {...form.field('confirmPassword')} />
          <Button type="submit" fullWidth loading={confirm.isPending}>
            Set New Password
          </Button>
          <Text ta="center" size="sm">
            <Anchor component={Link} to="/login">
              Go to Login
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
