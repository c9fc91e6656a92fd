// The size limits of a pipeline spec, apart from the validator: request schemas and the web's first
// chunk use them without loading Ajv and the YAML parser.

/**
 * The largest spec Gantry reads, in UTF-8 bytes. YAML parsing costs about a second of CPU per
 * 256 KB of the worst shapes (thousands of tiny steps or flow items), so a larger spec is
 * refused before parsing; real specs are a few KB.
 */
export const MAX_SPEC_BYTES = 256 * 1024;
export const SPEC_TOO_LARGE_MESSAGE = `The pipeline spec is too large: it must be at most ${MAX_SPEC_BYTES / 1024} KB`;
/** How many alias expansions a spec may make; an alias bomb ("billion laughs") is refused past it. */
export const MAX_SPEC_ALIASES = 100;

/** Is the text at most MAX_SPEC_BYTES in UTF-8 (counted without encoding the text)? */
export function isSpecWithinSize(text: string): boolean {
  if (text.length > MAX_SPEC_BYTES) return false;
  if (text.length * 3 <= MAX_SPEC_BYTES) return true;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      bytes += 4;
      i++;
    } // a surrogate pair: one 4-byte code point
    else bytes += 3;
    if (bytes > MAX_SPEC_BYTES) return false;
  }
  return true;
}
