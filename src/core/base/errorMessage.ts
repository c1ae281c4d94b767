/**
 * The message of anything a `catch` or a rejected promise holds: an `Error`'s message, or the value
 * as text (a library may throw a string or a plain object, whose cast to `Error` has no message).
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
