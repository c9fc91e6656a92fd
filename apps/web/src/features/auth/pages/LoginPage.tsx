import { Anchor, Button, Divider, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconBrandGithub } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ForgotPasswordBody, LoginBody, type LoginAnswer } from '@gantry/contracts';
import { isApiError } from '../../../api/errors';
import { toast } from '../../../api/toast';
import { useZodForm } from '../../../ui/use-zod-form';
import { AuthLayout } from '../components/AuthLayout';
import { PasswordField } from '../components/PasswordField';
import { useLogin } from '../api/login';
import { useLoginWithGithub } from '../api/login-github';
import { githubSignInUrl, useAuthProviders } from '../api/get-providers';
import { useForgotPassword } from '../api/forgot-password';
import { completeLogin, forgotPasswordErrorText, oauthErrorText, setPasswordPath } from '../lib/complete-login';
import { rememberReturnTo, takeReturnTo } from '../lib/return-to';

/** A login answer /login hands over to the page it goes on to (see handleAnswer). */
let handedOver: Extract<LoginAnswer, { done: true }> | null = null;

/**
 * /login (spec §2.2): username + password, Forgot password mode, GitHub sign-in.
 * There is no <form>: the Enter key does not submit through a field, only the button does.
 */
export default function LoginPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { pathname, search } = useLocation();
  const inPlace = pathname !== '/login';
  const [mode, setMode] = useState<'login' | 'forgot'>('login');
  const loginForm = useZodForm(LoginBody, { username: '', password: '' });
  const forgotForm = useZodForm(ForgotPasswordBody, { username: '' });
  const login = useLogin();
  const github = useLoginWithGithub();
  const forgot = useForgotPassword();
  const providers = useAuthProviders();

  const handleAnswer = (answer: LoginAnswer, username: string) => {
    if (answer.done) {
      // Shown in place of a signed-in page, the login leaves the user on that page with its query, which now shows: a
      // git account connection that came back here (?code=…&type=…) is finished by Settings. /login goes on to the
      // page an in-place login left for the GitHub sign-in, or else to /projects.
      const back = takeReturnTo();
      if (inPlace || !back) {
        completeLogin(answer);
        if (!inPlace) navigate('/projects', { replace: true });
        return;
      }
      // That page opens first, still signed out, and its login in place stores the session (below): signed in while
      // still on /login, the guest route would go on to /projects, which the router's transition to a page whose code
      // is loading let it do.
      handedOver = answer;
      navigate(back, { replace: true });
    } else if (answer.challengeName === 'NEW_PASSWORD_REQUIRED') {
      // the set-password screen ends where this login would have
      if (inPlace) rememberReturnTo(pathname + search);
      navigate(setPasswordPath(username, answer.sessionToken));
    }
  };

  const signInWithGithub = (authorizeUrl: string) => {
    // the provider comes back to /login, which then goes on to this page
    if (inPlace) rememberReturnTo(pathname + search);
    else takeReturnTo();
    window.location.assign(githubSignInUrl(authorizeUrl));
  };

  // The answer of a GitHub sign-in that /login handed over to the page an in-place login had left (above).
  useEffect(() => {
    if (!inPlace || !handedOver) return;
    completeLogin(handedOver);
    handedOver = null;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Back from GitHub: /login?code=… signs in; ?error_description=… is shown up to its first semicolon. Only on /login,
  // the sign-in's redirect: shown in place of a signed-in page, the code there is another flow's (a git account being
  // connected, back to /settings on a browser without a session), which must not sign this browser in as that account.
  const handledOAuth = useRef(false);
  useEffect(() => {
    if (handledOAuth.current || inPlace) return;
    const code = params.get('code');
    const error = params.get('error_description');
    if (!code && !error) return;
    handledOAuth.current = true;
    setParams({}, { replace: true });
    if (error) {
      toast.error(oauthErrorText(error));
      return;
    }
    github.mutate(code!, {
      onSuccess: (answer) => handleAnswer(answer, answer.done ? answer.profile.email : ''),
      onError: (e) => toast.apiError(e),
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const submitLogin = loginForm.onSubmit((body) =>
    login.mutate(body, {
      onSuccess: (answer) => handleAnswer(answer, body.username),
      onError: (e) => {
        if (isApiError(e)) loginForm.setServerErrors(e.fields);
        toast.apiError(e);
      },
    }),
  );

  const submitForgot = forgotForm.onSubmit(({ username }) =>
    forgot.mutate(username, {
      onSuccess: () => navigate(`/account/reset-confirmation/${encodeURIComponent(username)}`),
      onError: (e) => toast.error(forgotPasswordErrorText(isApiError(e) && e.hasServerMessage ? e.message : undefined)),
    }),
  );

  if (mode === 'forgot') {
    return (
      <AuthLayout title="Forgot password" subtitle="Enter the e-mail of your account and we will send you a recovery link.">
        <Stack gap="md">
          <TextInput label="Username" placeholder="you@company.com" type="email" autoComplete="email" {...forgotForm.field('username')} />
          <Button fullWidth onClick={() => submitForgot()} loading={forgot.isPending}>
            Send recovery link
          </Button>
          <Anchor component="button" type="button" size="sm" onClick={() => setMode('login')} ta="center">
            Back to Login
          </Anchor>
        </Stack>
      </AuthLayout>
    );
  }

  const githubUrl = providers.data?.github?.authorizeUrl;
  return (
    <AuthLayout title="Sign in to Gantry" subtitle="Welcome back! Enter your details to continue.">
      <Stack gap="md">
        <TextInput label="Username" placeholder="you@company.com" autoComplete="username" {...loginForm.field('username')} />
        <PasswordField label="Password" placeholder="Your password" autoComplete="current-password" {...loginForm.field('password')} />
        <Group justify="flex-end" mt={-6}>
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => {
              forgotForm.reset({ username: loginForm.values.username ?? '' });
              setMode('forgot');
            }}
          >
            Forgot password?
          </Anchor>
        </Group>
        <Button fullWidth onClick={() => submitLogin()} loading={login.isPending || github.isPending}>
          Log In
        </Button>
        {githubUrl && (
          <>
            <Divider label="or" labelPosition="center" />
            <Button fullWidth variant="default" leftSection={<IconBrandGithub size={18} />} onClick={() => signInWithGithub(githubUrl)}>
              Sign in with GitHub
            </Button>
          </>
        )}
        <Text size="sm" ta="center" c="dimmed">
          Don't have an account?{' '}
          <Anchor component={Link} to="/register" fw={600}>
            Sign up
          </Anchor>
        </Text>
      </Stack>
    </AuthLayout>
  );
}
