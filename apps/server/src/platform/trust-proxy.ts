import net from 'node:net';
import { z } from 'zod';

/** The names proxy-addr (Fastify's trustProxy) knows for address ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, mask, ...rest] = entry.split('/');
  const family = net.isIP(address ?? '');
  if (!family || rest.length) return false;
  if (mask === undefined) return true;
  if (/^\d+$/.test(mask)) return Number(mask) <= (family === 4 ? 32 : 128);
  return family === 4 && net.isIPv4(mask); // 10.0.0.0/255.0.0.0
}

/**
 * TRUST_PROXY as Fastify's `trustProxy` takes it: unset or `false` → off (X-Forwarded-For is ignored,
 * so a client cannot choose its own address); `true` → trust every hop; otherwise a comma-separated
 * list of proxy addresses, CIDRs or loopback/linklocal/uniquelocal. No hop count: Fastify 5 treats
 * one as "trust nothing", since it cannot tell a proxy from a client sending enough hops itself.
 */
export const TrustProxy = z
  .string()
  .optional()
  .transform((raw, ctx): boolean | string[] => {
    const value = raw?.trim().toLowerCase();
    if (!value || value === 'false') return false;
    if (value === 'true') return true;
    if (/^\d+$/.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'a hop count cannot tell a proxy from a client; list the proxy addresses or CIDRs instead (or true)' });
      return z.NEVER;
    }
    const entries = value
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = entries.filter((e) => !isAddressOrRange(e));
    if (bad.length || !entries.length) {
      ctx.addIssue({ code: 'custom', message: `expected true, false or a comma-separated list of proxy addresses/CIDRs, not "${bad.join(', ') || raw}"` });
      return z.NEVER;
    }
    return entries;
  });
