/**
 * Every error the package throws on purpose. Each class carries a stable `code` so callers (and the CLI's
 * JSON consumers in other languages) can branch on it without parsing messages.
 *
 * Rule of use: `InvalidTypeError` for a value of the wrong type, `InvalidValueError` for a value out of
 * range or a conflict between fields, `ClosedError` for use after `close()`, `SolverTrapError` when the
 * WASM module traps. Outcomes such as a budget fallback are statuses on the Plan, never exceptions.
 */

/** A field has the wrong type (missing, not an array, not a number...). */
export class InvalidTypeError extends TypeError {
  readonly code = 'ERR_TAO_INVALID_TYPE' as const;
  override name = 'InvalidTypeError';
}

/** A field's value is out of range, or conflicts with another field (duplicate id, unknown node...). */
export class InvalidValueError extends RangeError {
  readonly code = 'ERR_TAO_INVALID_VALUE' as const;
  override name = 'InvalidValueError';
}

/** A pool, planner or solver was used after `close()`. */
export class ClosedError extends Error {
  readonly code = 'ERR_TAO_CLOSED' as const;
  override name = 'ClosedError';
}

/** The WASM module trapped (out of memory, unreachable). The instance is not reused afterwards. */
export class SolverTrapError extends Error {
  readonly code = 'ERR_TAO_TRAP' as const;
  override name = 'SolverTrapError';
}

/**
 * A caller's AbortSignal fired before its solve settled. Follows the platform convention
 * (`name === 'AbortError'`, as fetch and timers/promises reject) so generic abort handling recognises it.
 */
export class AbortedError extends Error {
  readonly code = 'ERR_TAO_ABORTED' as const;
  override name = 'AbortError';
}

/** Every error code the package can raise. */
export type ErrorCode =
  | InvalidTypeError['code']
  | InvalidValueError['code']
  | ClosedError['code']
  | SolverTrapError['code']
  | AbortedError['code'];
