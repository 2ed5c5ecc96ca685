/**
 * The field rules question bodies share (title, tags, options), apart so the question schemas and
 * the normalize bodies both read them.
 * @module
 */
import * as z from 'zod/mini';
import {
  MAX_OPTIONS,
  MAX_TAGS,
  MAX_TITLE_LENGTH,
  MIN_OPTIONS,
} from '../api/limits.js';

/** A question's title: 1 to `MAX_TITLE_LENGTH` characters. */
export const Title = z.string().check(
  z.minLength(1, { error: 'must not be empty' }),
  z.maxLength(MAX_TITLE_LENGTH, { error: `must be at most ${MAX_TITLE_LENGTH} characters` }),
);
/** A question's tags, at most `MAX_TAGS`. */
export const Tags = z.array(z.string()).check(z.maxLength(MAX_TAGS, { error: `must hold at most ${MAX_TAGS}` }));
/** A multiple-choice question's options. */
export const Options = z.array(z.string()).check(
  z.minLength(MIN_OPTIONS, { error: `must hold at least ${MIN_OPTIONS}` }),
  z.maxLength(MAX_OPTIONS, { error: `must hold at most ${MAX_OPTIONS}` }),
);
