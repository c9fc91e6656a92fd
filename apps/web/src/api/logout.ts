import { http } from './http';
import { session } from './session';

/** Log Out (spec §2.6): revokes the refresh token on the server, clears the session and reloads. */
export async function signOut() {
  const refreshToken = session.refreshToken();
  try {
    if (refreshToken) await http.post('/ms-usermanagement/auth/logout', { refreshToken }, { auth: false });
  } catch {
    // The session ends locally whatever the server says.
  }
  session.clear();
  window.location.reload();
}
