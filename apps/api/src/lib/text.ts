/**
 * Text PostgreSQL cannot store. A NUL character is refused in `text` and `jsonb`. A lone UTF-16
 * surrogate (half of a pair, which JSON can spell `"\ud800"`) is written by JSON.stringify as
 * that escape, which `jsonb` refuses: both answered 500 before they were checked (fuzz).
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** Whether PostgreSQL can store this text as it is. */
export const isStorableText = (text: string): boolean =>
  !text.includes('\u0000') && !LONE_SURROGATE.test(text);

/** The text with every lone surrogate replaced by U+FFFD (pairs kept). */
export const withoutLoneSurrogates = (text: string): string =>
  text.replace(LONE_SURROGATES, '\ufffd');
