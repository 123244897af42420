/**
 * Internal: how error messages name the kind of a bad value. Not part of the public API.
 *
 * @module
 */

import { show } from "./_show.ts";

/** How {@linkcode kindOf} names a value. */
export interface KindOfOptions {
  /**
   * Name a scalar's value too (`the string "x"`, `the number 3`, `true`, `an empty array`):
   * for a `__mock__` command's parameters, where the value typed is the best hint.
   */
  values?: boolean;
}

/** "null", "undefined", "an array", "a RegExp", "an object", "a string", "a number", ... */
export function kindOf(value: unknown, options: KindOfOptions = {}): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) {
    return options.values && value.length === 0 ? "an empty array" : "an array";
  }
  if (value instanceof RegExp) return "a RegExp";
  if (options.values) {
    if (typeof value === "string") return `the string ${show(value)}`;
    if (typeof value === "number") return `the number ${value}`;
    if (typeof value === "boolean") return String(value);
  }
  const type = typeof value;
  return type === "object" ? "an object" : `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

/** How {@linkcode frameKind} names a frame. */
export interface FrameKindOptions {
  /**
   * Name a control request or response by its inner `subtype` and a stream event by its
   * event's `type` (`control_request/can_use_tool`, `stream_event/message_start`): for
   * pairing frames of two runs, where the outer type alone pairs unlike frames.
   */
  nested?: boolean;
}

/** A frame's kind: `type`, or `type/subtype` (`system/init`, `result/success`, `assistant`). */
export function frameKind(frame: Record<string, unknown>, options: FrameKindOptions = {}): string {
  const inner = (o: unknown) =>
    typeof o === "object" && o !== null ? (o as Record<string, unknown>) : undefined;
  const detail = options.nested
    ? frame.subtype ?? inner(frame.request)?.subtype ?? inner(frame.response)?.subtype ??
      inner(frame.event)?.type
    : frame.subtype;
  return detail === undefined || detail === null || detail === ""
    ? String(frame.type)
    : `${frame.type}/${detail}`;
}
