import { SignJWT, jwtVerify, errors as joseErrors, decodeJwt } from 'jose';
import { AUTH_ERROR } from '@gantry/contracts';
import { Unauthorized } from './errors.js';

export interface IdClaims {
  sub: string;
  email: string;
}

/** Short-lived id tokens (HS256 JWT, key derived from the instance secret). */
export function createIdTokens(key: Uint8Array, ttlSeconds: number) {
  return {
    ttlSeconds,
    async sign(claims: IdClaims): Promise<string> {
      return new SignJWT({ email: claims.email, token_use: 'id' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setIssuedAt()
        .setIssuer('gantry')
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key);
    },
    async verify(token: string): Promise<IdClaims> {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: 'gantry', algorithms: ['HS256'] });
        if (payload.token_use !== 'id' || !payload.sub) throw new Unauthorized('invalid token', 401, AUTH_ERROR.invalid);
        return { sub: payload.sub, email: String(payload.email) };
      } catch (err) {
        if (err instanceof Unauthorized) throw err;
        if (err instanceof joseErrors.JWTExpired) throw new Unauthorized('jwt expired', 401, AUTH_ERROR.expired);
        throw new Unauthorized('invalid token', 401, AUTH_ERROR.invalid);
      }
    },
    /** The subject of a token whose signature is fine but which may have expired (for refresh). */
    async subjectIgnoringExpiry(token: string): Promise<string | null> {
      try {
        await jwtVerify(token, key, { issuer: 'gantry', algorithms: ['HS256'], currentDate: new Date(decodeJwt(token).iat! * 1000) });
        return decodeJwt(token).sub ?? null;
      } catch {
        return null;
      }
    },
  };
}
export type IdTokens = ReturnType<typeof createIdTokens>;

export function bearerFrom(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return m ? m[1]! : header.trim() || null;
}
