import { Anchor, Button, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import type { z } from 'zod';
import { PasswordField } from './PasswordField';
import { useZodForm } from '../../../ui/use-zod-form';
import { isApiError } from '../../../api/errors';

export interface SignUpFormProps<S extends z.ZodType> {
  schema: S;
  initialEmail?: string;
  withCode?: boolean;
  submitLabel?: string;
  loading?: boolean;
  /** Runs with the parsed values; may return the server field errors of a 400. */
  onSubmit: (values: z.output<S>) => Promise<unknown>;
}

/** Step 1 of every sign-up: first name, last name, e-mail (sent as username), password [, AppSumo code]. Validates on submit only. */
export function SignUpForm<S extends z.ZodType>({ schema, initialEmail = '', withCode, submitLabel = 'Sign Up', loading, onSubmit }: SignUpFormProps<S>) {
  const form = useZodForm(schema, { firstName: '', lastName: '', username: initialEmail, password: '', ...(withCode ? { appSumoCode: '' } : {}) });

  const submit = form.onSubmit((values) => {
    onSubmit(values).catch((e: unknown) => {
      if (isApiError(e)) form.setServerErrors(e.fields);
    });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={2} spacing="md">
          <TextInput label="First name" autoComplete="given-name" {...form.field('firstName')} />
          <TextInput label="Last name" autoComplete="family-name" {...form.field('lastName')} />
        </SimpleGrid>
        <TextInput label="Email" type="email" placeholder="you@company.com" autoComplete="email" {...form.field('username')} />
        <PasswordField
          label="Password"
          autoComplete="new-password"
          description="At least 8 characters, with a lowercase letter, an uppercase letter and a number."
          {...form.field('password')}
        />
        {withCode && <TextInput label="AppSumo code" autoComplete="off" {...form.field('appSumoCode')} />}
        <Button type="submit" fullWidth loading={loading}>
          {submitLabel}
        </Button>
        <Text size="sm" ta="center" c="dimmed">
          Already have an account?{' '}
          <Anchor component={Link} to="/login" fw={600}>
            Log in
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
