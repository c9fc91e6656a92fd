import { Button, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { Password, RequiredText, messages } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { isApiError } from '../../../api/errors';
import { useZodForm } from '../../../ui/use-zod-form';
import { AuthLayout } from '../components/AuthLayout';
import { PasswordField } from '../components/PasswordField';
import { useSetPassword } from '../api/set-password';
import { completeLogin } from '../lib/complete-login';
import { takeReturnTo } from '../lib/return-to';

// withConfirmation's type keeps only the password fields, so the same rule is spelt out here with its message.
const CompleteRegistrationForm = z
  .object({ firstName: RequiredText('First name', 50), lastName: RequiredText('Last name', 50), password: Password, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: messages.passwordsDontMatch, path: ['confirmPassword'] });

/**
 * /account/set-password/{email}/{token} (spec §2.4): complete a registration from an invitation,
 * or answer the NEW_PASSWORD_REQUIRED login challenge ({username}/{sessionToken}).
 */
export default function SetPasswordPage() {
  const { email = '', token = '' } = useParams();
  const navigate = useNavigate();
  const setPassword = useSetPassword();
  const form = useZodForm(CompleteRegistrationForm, { firstName: '', lastName: '', password: '', confirmPassword: '' });

  const submit = form.onSubmit(({ firstName, lastName, password }) =>
    setPassword.mutate(
      { username: email, sessionToken: token, newPassword: password, firstName, lastName },
      {
        onSuccess: (answer) => {
          if (!answer.done) return;
          completeLogin(answer);
          // a login shown in place of a page that met the new-password challenge goes back to that page
          navigate(takeReturnTo() ?? '/projects', { replace: true });
        },
        onError: (e) => {
          if (isApiError(e)) form.setServerErrors(e.fields);
          toast.apiError(e);
        },
      },
    ),
  );

  return (
    <AuthLayout title="Complete your registration" subtitle="Tell us who you are and choose your password.">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput label="Email" value={email} readOnly variant="filled" />
          <SimpleGrid cols={2} spacing="md">
            <TextInput label="First name" autoComplete="given-name" {...form.field('firstName')} />
            <TextInput label="Last name" autoComplete="family-name" {...form.field('lastName')} />
          </SimpleGrid>
          <PasswordField label="New password" autoComplete="new-password" {...form.field('password')} />
          <PasswordField label="Confirm password" autoComplete="new-password" {...form.field('confirmPassword')} />
          <Button type="submit" fullWidth loading={setPassword.isPending}>
            Complete register
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
