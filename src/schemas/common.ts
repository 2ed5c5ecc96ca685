/**
 * Building blocks shared by the resource schemas.
 * @module
 */
import * as z from 'zod/mini';
import { MAX_OFFSET_PAGE_SIZE, MAX_PAGE_SIZE, MIN_PAGE_SIZE } from '../api/limits.js';
import { OTHER_BRANCH, type BranchSelecting } from '../core/validate.js';

/**
 * An object schema whose type lists exactly its fields, with no index signature (so a misspelled key
 * is a compile error), while unknown keys still pass through at run time (for JavaScript callers, and
 * for fields the service adds later).
 */
export function exact<T extends z.core.$ZodLooseShape>(shape: T): z.ZodMiniObject<T, z.core.$strip> {
  return z.looseObject(shape) as unknown as z.ZodMiniObject<T, z.core.$strip>;
}

/**
 * A value of an open set that this SDK does not know: one the service added after this version was
 * built. At run time it is a plain string. Its type is a template no real value is written like, so
 * a comparison with a misspelled known value (`status === 'acepted'`) fails to compile, while
 * `status === 'accepted'` narrows to the known value. To test for a value newer than the SDK,
 * compare as a string: `(task.status as string) === 'paused'`.
 * @example
 * ```ts
 * function label(status: ForecastTask['status']): string {
 *   if (status === 'completed') return 'done';
 *   return status; // a known value or an UnknownValue: both are strings
 * }
 * ```
 */
export type UnknownValue = `(unknown value: ${string})`;

/**
 * A string enum that stays open: the known values give autocompletion and closed comparisons, and a
 * value the service adds later still parses (typed {@link UnknownValue}; responses never fail on a
 * new enum value).
 */
export function openEnum<const T extends readonly string[]>(_values: T): z.ZodMiniType<T[number] | UnknownValue> {
  return z.string() as z.ZodMiniType<T[number] | UnknownValue>;
}

/** A timestamp in responses: ISO 8601 UTC with milliseconds. */
export const Timestamp = z.string();

/** Fields every list query can take (cursor paging). */
export const CursorPageParams = {
  /** Items per page, 1 to 100 (default 20). */
  limit: z.optional(z.int().check(z.minimum(MIN_PAGE_SIZE), z.maximum(MAX_PAGE_SIZE))),
  /** The `nextCursor` of the previous page. */
  cursor: z.optional(z.string()),
};

/** Fields every offset-paged list query can take (`/questions/browse`, `/decisions`). */
export const OffsetPageParams = {
  /** Items per page, up to 200 (default 50). */
  limit: z.optional(z.int().check(z.minimum(MIN_PAGE_SIZE), z.maximum(MAX_OFFSET_PAGE_SIZE))),
  /** How many items to skip. */
  offset: z.optional(z.int().check(z.minimum(0))),
};


/**
 * A union of two object schemas told apart by whether the input has `key`: errors then name the
 * fields of the branch the input meant, not a key of the other branch.
 */
export function unionByKey<const W extends z.ZodMiniType, const O extends z.ZodMiniType>(key: string, withKey: W, otherwise: O) {
  const selectBranch = (input: unknown): z.ZodMiniType =>
    typeof input === 'object' && input !== null && key in input ? withKey : otherwise;
  return Object.assign(z.union([otherwise, withKey]), { selectBranch }) satisfies BranchSelecting;
}

/**
 * A rule across fields, for `.check(...)`: when `ok(value)` is false, an issue at `path` with `message`.
 * Built on `superRefine`, which the question rules already bundle.
 */
export function rule<T>(ok: (value: T) => boolean, path: string, message: string) {
  return z.superRefine((value: T, ctx) => {
    if (!ok(value)) ctx.addIssue({ code: 'custom', message, path: path ? [path] : [], input: value });
  });
}

/**
 * The discriminator of a union's branch for values the SDK does not know: any string but the
 * `known` ones, which belong to the other branches (errors then name the field a known branch
 * misses, never this branch's refusal).
 */
export function unknownValue(known: readonly string[]): z.ZodMiniType<UnknownValue> {
  return z.string().check(z.superRefine((value: string, ctx) => void (known.includes(value) && knownValue(ctx, value)))) as unknown as z.ZodMiniType<UnknownValue>;
}

/**
 * Refuses, for the branch of values the SDK does not know, a value another branch knows. `continue:
 * false`: a refusal of the shape, so a union reports the known branch the value names. @internal
 */
export function knownValue(ctx: z.core.$RefinementCtx<unknown>, value: unknown): void {
  ctx.addIssue({ code: 'custom', message: 'is a known value', params: { [OTHER_BRANCH]: true }, input: value, continue: false });
}

/**
 * {@link openEnum} for values needed only as a type: autocompletion on `T`, any string passes, and
 * no list of values is bundled.
 */
export function openString<T extends string>(): z.ZodMiniType<T | UnknownValue> {
  return z.string() as z.ZodMiniType<T | UnknownValue>;
}

/**
 * `true` when `A` and `B` are the same type to the compiler: the same fields, each as optional and
 * of the same type (stricter than assignability both ways, which lets an optional field go missing).
 */
export type Same<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;

/**
 * The schema of a type written by hand (one a published entry must declare without zod): the
 * compiler refuses `schema` unless what it parses is exactly `T`, so a field added, dropped or
 * retyped on either side fails to compile.
 * @example
 * ```ts
 * interface Ping { id: string }
 * const Ping = schemaFor<Ping>()(exact({ id: z.string() }));
 * ```
 */
export function schemaFor<T>() {
  return <S extends z.ZodMiniType>(schema: S & (Same<z.output<S>, T> extends true ? unknown : { drift: 'the schema parses to another type than the one it describes' })): S => schema;
}

/** Whether `value` is a zod schema (a schema module also exports constants and helpers). */
export function isSchema(value: unknown): value is z.ZodMiniType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}
