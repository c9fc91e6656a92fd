/**
 * Hides secrets in log lines: every occurrence of a secret becomes `****` — the value itself and,
 * for secrets of 6+ characters, the forms a step can print it in by accident or on purpose:
 * base64 and base64url (at each of the three byte alignments, so a secret inside a longer encoded
 * text is caught too), hex (lower and upper case) and URL encoding.
 *
 * A log is masked a line at a time, so what is printed over several lines is masked line by line:
 * each line of a secret of several lines (a PEM key, a kubeconfig) of 6+ characters is a secret of
 * its own, and so is each line of the value's base64 wrapped as `base64` (76 columns) and PEM
 * (`openssl base64`, 64) wrap it. A value cut into pieces on purpose is not caught.
 */
export const MASK = '****';
/** Shorter values cannot be told from ordinary text. */
const MIN_SECRET = 3;
/** Below this, an encoded fragment is too short to be told from ordinary text. */
const MIN_ENCODED = 6;

const b64url = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');

/**
 * The part of base64(prefix + secret + suffix) that depends on the secret alone, for a secret that
 * starts `offset` bytes into a 3-byte group: the characters whose 6 bits all come from its bytes.
 */
function base64Cores(secret: Buffer): string[] {
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), secret])
      .toString('base64')
      .replace(/=+$/, '');
    const first = Math.ceil((offset * 8) / 6);
    const last = Math.floor(((offset + secret.length) * 8) / 6);
    const core = encoded.slice(first, last);
    if (core.length >= MIN_ENCODED) cores.push(core);
  }
  return cores;
}

/** The columns base64 tools wrap at: coreutils' base64 (76), PEM and openssl base64 (64). */
const WRAP_COLUMNS = [76, 64];

/** The lines of the value's base64 as a tool that wraps it prints them (the value encoded alone). */
function wrappedBase64Lines(bytes: Buffer): string[] {
  const encoded = bytes.toString('base64');
  return WRAP_COLUMNS.filter((width) => encoded.length > width).flatMap((width) =>
    Array.from({ length: Math.ceil(encoded.length / width) }, (_, i) => encoded.slice(i * width, (i + 1) * width).replace(/=+$/, '')),
  );
}

/** Every text form of one secret that is masked. */
export function maskedForms(secret: string): string[] {
  if (secret.length < MIN_SECRET) return [];
  const forms = new Set([secret]);
  for (const line of /[\r\n]/.test(secret) ? secret.split(/\r?\n|\r/) : []) if (line.trim().length >= MIN_ENCODED) forms.add(line.trim());
  if (secret.length >= MIN_ENCODED) {
    const bytes = Buffer.from(secret, 'utf8');
    for (const core of base64Cores(bytes)) {
      forms.add(core);
      forms.add(b64url(core));
    }
    for (const line of wrappedBase64Lines(bytes)) if (line.length >= MIN_ENCODED) forms.add(line);
    const hex = bytes.toString('hex');
    forms.add(hex);
    forms.add(hex.toUpperCase());
    forms.add(encodeURIComponent(secret));
    forms.add(encodeURIComponent(secret).replace(/%20/g, '+'));
  }
  return [...forms];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A function that replaces every form of every secret in a line; one regular expression, longest forms first. */
export function createMasker(secrets: (string | undefined | null)[]): (line: string) => string {
  const forms = [...new Set(secrets.filter((s): s is string => typeof s === 'string').flatMap(maskedForms))].sort((a, b) => b.length - a.length);
  if (!forms.length) return (line) => line;
  const re = new RegExp(forms.map(escapeRegExp).join('|'), 'g');
  return (line) => line.replace(re, MASK);
}
