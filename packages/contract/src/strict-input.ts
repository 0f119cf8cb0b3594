import { z } from 'zod';

/*
 * Strict input (issue 39 item 7, decision 0071): integers written in decimal digits only, and
 * identifiers (staff numbers, usernames, company / merchant / terminal codes) NFKC-normalised and
 * free of characters a person cannot see.
 */

/** ASCII decimal digits only (`\d` never matches other scripts' digits, even with the u flag). */
const DECIMAL_DIGITS = /^\d+$/;

/**
 * A whole number that may arrive as text (a query or path parameter): a JSON number is judged as
 * it is; a string only when it is plain decimal digits (`12`, `007`), so `0x10`, `1e1`, `0b10`,
 * `0o7`, ` 12`, `+5`, `-1`, `1.0` and `١٢` stay strings and fail the number check ("Must be a
 * number"), where `z.coerce.number()` read them as 16, 10, 2, 7, 12, 5, -1 and 1. For positive
 * values (ids, pages, limits), which is every integer parameter the contract has.
 *
 * The JSON Schema (OpenAPI) is the wrapped schema's: an integer.
 */
export function decimalInteger<T extends z.ZodType<number>>(schema: T) {
  return z.preprocess(
    (value) => (typeof value === 'string' && DECIMAL_DIGITS.test(value) ? Number(value) : value),
    schema,
  );
}

/**
 * Characters no identifier may hold: every "other" code point (controls Cc, format Cf — the
 * zero-width U+200B–U+200D, U+2060, U+FEFF, the soft hyphen U+00AD and the bidirectional marks
 * and overrides U+200E/F, U+061C, U+202A–U+202E, U+2066–U+2069 —, surrogates, private use and
 * unassigned), line and paragraph separators, and the rest of Unicode's default-ignorable code
 * points (fillers such as U+3164, variation selectors, tag characters), which render as nothing.
 */
const HIDDEN_CHARACTER = /[\p{C}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

/** True when `text` holds no character of HIDDEN_CHARACTER. */
export const hasNoHiddenCharacters = (text: string): boolean => !HIDDEN_CHARACTER.test(text);

/**
 * An identifier as it is compared and stored: NFKC (compatibility forms folded, so full-width
 * `Ｅ０００１` is `E0001`, `ﬁ` is `fi`, the Kelvin sign is K) and trimmed. Look-alikes from other
 * scripts (Cyrillic `Е` for Latin `E`) are distinct characters and stay as they are (decision 0071).
 */
export const normalizeIdentifier = (text: string): string => text.normalize('NFKC').trim();

/**
 * The start of every identifier schema: a string, NFKC-normalised and trimmed, refused with
 * `v.identifier_chars` when it holds a hidden character. Length and character rules follow.
 */
export const identifierText = (required: string) =>
  z
    .string(required)
    .overwrite(normalizeIdentifier)
    .refine(hasNoHiddenCharacters, 'v.identifier_chars');
