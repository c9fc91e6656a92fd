import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordBody, Profile, RefreshAnswer, UpdateProfileBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { session } from '../../../api/session';

/** Update user (spec §7): first and last name; the stored profile follows, so the user menu shows the new name. */
export const useUpdateProfile = () =>
  useMutation({
    mutationFn: (body: UpdateProfileBody) => http.put<Profile>('/ms-usermanagement/users/me', body),
    onSuccess: (profile) => session.saveProfile(profile),
  });

/** Every other session of the user ends; this one goes on with the tokens answered. */
export const useChangePassword = () =>
  useMutation({
    mutationFn: (body: ChangePasswordBody) => http.post<RefreshAnswer>('/ms-usermanagement/users/me/password', body),
    onSuccess: (tokens) => session.saveTokens(tokens),
  });
