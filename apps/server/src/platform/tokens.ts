import { createSecretKey } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors, decodeJwt, type JWTPayload } from 'jose';
import { AUTH_ERROR } from '@gantry/contracts';
import { Unauthorized } from './errors.js';

export interface IdClaims {
  sub: string;
  email: string;
}

/** When a user's id tokens start to count (log-out, password reset… set it); undefined: no such user. */
export type TokensValidAfterLookup = (userId: string) => Promise<{ tokensValidAfter: Date | null } | undefined>;

/**
 * Short-lived id tokens (HS256 JWT, key derived from the instance secret), refused once their user
 * revoked them (`tokensValidAfter`) or no longer exists.
 *
 * Revocation compares milliseconds, not the JWT `iat` (whole seconds): with `iat` alone a token
 * issued earlier in the same second as a log-out would survive it, or a login right after it be
 * refused. So every token carries `iat_ms`, a token is refused when `iat_ms <= tokensValidAfter`,
 * and a token signed after a revocation is dated at least 1 ms after it (`issuedAfter`), even in the
 * same millisecond or on a node whose clock runs a little behind. Tokens without `iat_ms` (signed
 * before it existed) count from the start of their `iat` second, i.e. the strict side.
 */
export function createIdTokens(secret: Uint8Array, ttlSeconds: number, validAfter?: TokensValidAfterLookup) {
  // one key object for the process: given raw bytes, jose imports the key again on every sign and verify
  const key = createSecretKey(secret);
  const invalid = () => new Unauthorized('invalid token', 401, AUTH_ERROR.invalid);
  const expired = () => new Unauthorized('jwt expired', 401, AUTH_ERROR.expired);
  // A client sends the same token with every request: its signature is checked once (HMAC through
  // WebCrypto is most of a cached request's work), its expiry and revocation on every use.
  const verified = new Map<string, JWTPayload>();
  const VERIFIED_MAX = 5_000;
  async function signed(token: string): Promise<JWTPayload> {
    const kept = verified.get(token);
    if (kept) {
      if ((kept.exp ?? 0) * 1000 <= Date.now()) {
        verified.delete(token);
        throw expired();
      }
      return kept;
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, key, { issuer: 'gantry', algorithms: ['HS256'] }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw expired();
      throw invalid();
    }
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, payload);
    return payload;
  }
  return {
    ttlSeconds,
    async sign(claims: IdClaims, opts: { issuedAfter?: Date | null } = {}): Promise<string> {
      const issuedAtMs = Math.max(Date.now(), (opts.issuedAfter?.getTime() ?? -Infinity) + 1);
      return new SignJWT({ email: claims.email, token_use: 'id', iat_ms: issuedAtMs })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setIssuedAt()
        .setIssuer('gantry')
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key);
    },
    async verify(token: string): Promise<IdClaims> {
      const payload = await signed(token);
      if (payload.token_use !== 'id' || !payload.sub) throw invalid();
      if (validAfter) {
        // Outside the try: a failing lookup is a server error, not an invalid token.
        const user = await validAfter(payload.sub);
        const issuedAtMs = typeof payload.iat_ms === 'number' ? payload.iat_ms : (payload.iat ?? 0) * 1000;
        if (!user || (user.tokensValidAfter && issuedAtMs <= user.tokensValidAfter.getTime())) throw invalid();
      }
      return { sub: payload.sub, email: String(payload.email) };
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
