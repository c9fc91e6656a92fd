import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The headers every answer carries so a browser keeps Gantry's pages to themselves: no page of another
 * site may frame it (clickjacking of Deploy, Delete, Invite…), scripts come only from Gantry's own
 * bundles, answers are never sniffed as another type, and no Referer leaves a page whose address holds a
 * token (the verify and reset links).
 * Gantry is often served over plain HTTP on a LAN or behind a TLS proxy that owns HSTS, so it sends no
 * HSTS and does not upgrade requests to https itself.
 */
export async function securityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // Ajv compiles the pipeline spec's schema in the browser with new Function (the spec editor's checks);
        // inline and foreign scripts stay refused
        scriptSrc: ["'self'", "'unsafe-eval'"],
        // Mantine writes its CSS variables in a <style> element and components position with style attributes
        styleSrc: ["'self'", "'unsafe-inline'"],
        // commit authors' avatars come from their git provider (GitHub, a self-hosted GitLab…)
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
  });
}
