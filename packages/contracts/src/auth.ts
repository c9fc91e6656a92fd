import { z } from 'zod';
import { Email, InputText, Password, RequiredText, messages } from './common.js';

export const SignUpBody = z.object({
  firstName: RequiredText('First name', 50),
  lastName: RequiredText('Last name', 50),
  username: Email,
  password: Password,
});
export type SignUpBody = z.infer<typeof SignUpBody>;

export const AppSumoSignUpForm = SignUpBody.extend({
  appSumoCode: InputText().trim().min(1, 'Please enter your code'),
});
export type AppSumoSignUpForm = z.infer<typeof AppSumoSignUpForm>;

export const ActivateBody = z.object({ username: Email, code: InputText().min(1) });
export type ActivateBody = z.infer<typeof ActivateBody>;

export const LoginBody = z.object({
  username: InputText()
    .trim()
    .min(1, 'Please enter your username')
    .transform((e) => e.toLowerCase()),
  password: InputText().min(1, messages.passwordRequired),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const GithubLoginBody = z.object({ code: InputText().min(1) });
export type GithubLoginBody = z.infer<typeof GithubLoginBody>;

export const ForgotPasswordBody = z.object({ username: Email });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

export const ConfirmForgotPasswordBody = z.object({ username: Email, code: InputText().min(1), password: Password });
export type ConfirmForgotPasswordBody = z.infer<typeof ConfirmForgotPasswordBody>;

export const SetPasswordBody = z.object({
  username: Email,
  sessionToken: InputText().min(1),
  newPassword: Password,
  firstName: InputText().trim().max(50).optional(),
  lastName: InputText().trim().max(50).optional(),
});
export type SetPasswordBody = z.infer<typeof SetPasswordBody>;

/** A form with a confirmation field: the same rules plus "Passwords don't match". */
export function withConfirmation<T extends z.ZodObject<{ password: typeof Password }>>(schema: T) {
  return schema
    .extend({ confirmPassword: InputText() })
    .refine((v) => v.password === v.confirmPassword, { message: messages.passwordsDontMatch, path: ['confirmPassword'] });
}

export const RefreshBody = z.object({ refreshToken: InputText().min(1) });
export type RefreshBody = z.infer<typeof RefreshBody>;

export const UserStatus = z.enum(['UNCONFIRMED', 'CONFIRMED', 'FORCE_CHANGE_PASSWORD']);
export type UserStatus = z.infer<typeof UserStatus>;

export const Profile = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  status: UserStatus,
  isInstanceAdmin: z.boolean(),
});
export type Profile = z.infer<typeof Profile>;

export const AuthTokens = z.object({
  idToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.number().int(),
});

export const LoginAnswer = z.union([
  AuthTokens.extend({ done: z.literal(true), profile: Profile }),
  z.object({ done: z.literal(false), challengeName: z.literal('NEW_PASSWORD_REQUIRED'), sessionToken: z.string() }),
]);
export type LoginAnswer = z.infer<typeof LoginAnswer>;

export const RefreshAnswer = AuthTokens;
export type RefreshAnswer = z.infer<typeof RefreshAnswer>;

export const UpdateProfileBody = z.object({ firstName: RequiredText('First name', 50), lastName: RequiredText('Last name', 50) });
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;

export const WRONG_OLD_PASSWORD = 'Your old password is not correct';
/** My Account → Password: the old password proves it is the user; the new one follows the password rules. */
export const ChangePasswordBody = z.object({
  oldPassword: InputText({ error: 'Please enter your old password' }).min(1, 'Please enter your old password'),
  newPassword: Password,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;
/** The form: the new password repeated ("Passwords don't match"). */
export const ChangePasswordForm = ChangePasswordBody.extend({ repeatPassword: InputText() }).refine((v) => v.newPassword === v.repeatPassword, {
  message: messages.passwordsDontMatch,
  path: ['repeatPassword'],
});

export const ApplyPromoCodeBody = z.object({ code: InputText().trim().min(1, 'Please enter your code'), email: Email });
export type ApplyPromoCodeBody = z.infer<typeof ApplyPromoCodeBody>;
export const ReleasePromoCodeBody = z.object({ email: Email });
export const PromotionQuery = z.object({ email: Email });
export const PromotionAnswer = z.object({ hasPromotion: z.boolean() });

export const OutboxMail = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  createdAt: z.string(),
});
export type OutboxMail = z.infer<typeof OutboxMail>;

/** 401 types the web client acts on (spec §8). */
export const AUTH_ERROR = {
  expired: 'TokenExpiredError',
  invalid: 'JsonWebTokenError',
  notAuthorized: 'NotAuthorizedException',
} as const;

/** One-time codes and tokens: how long each lives. */
export const CODE_TTL_MINUTES = { verify: 60 * 24, reset: 60, invite: 60 * 24 * 7, session: 15 } as const;
export const ID_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_DAYS = 30;
