/**
 * Internal: the parameters of one `__mock__` command, read with error messages that name
 * the command and the field (`__mock__ text_response: 'params.text' must be a string, got the
 * number 42`). Not part of the public API.
 *
 * @module
 */

import type { PermissionSuggestion } from "../builders/control.ts";
import type { AskUserQuestionItem } from "../scenario/exchange_options.ts";
import { FAILURE_NAMES, type FailureName, isFailureName } from "../scenario/named_failures.ts";
import { isObject } from "../wire/frame.ts";
import { kindOf } from "../wire/_kind_of.ts";
import { show } from "../wire/_show.ts";

/** One command's parameters, read with messages that name the command and the field. */
export class Params {
  readonly command: string;
  readonly path: string;
  readonly data: Record<string, unknown>;

  constructor(command: string, path: string, data: Record<string, unknown>) {
    this.command = command;
    this.path = path;
    this.data = data;
  }

  fail(kind: typeof TypeError, key: string, problem: string): never {
    throw new kind(`__mock__ ${this.command}: '${this.path}.${key}' ${problem}`);
  }

  checkKeys(spec: readonly string[]): void {
    const known = spec.map((k) => k.replace(/\?$/, ""));
    for (const key of Object.keys(this.data)) {
      if (!known.includes(key)) {
        throw new TypeError(
          `__mock__ ${this.command}: '${this.path}.${key}' is not a parameter of ${this.command} (${
            known.length > 0 ? `its parameters are ${known.join(", ")}` : "it takes none"
          })`,
        );
      }
    }
  }

  #get(key: string, optional: boolean | undefined): unknown {
    const value = this.data[key];
    if (value === undefined && !optional) this.fail(TypeError, key, "is required");
    return value;
  }

  string(key: string, options: { optional: true; empty?: boolean }): string | undefined;
  string(key: string, options?: { optional?: false; empty?: boolean }): string;
  string(key: string, options: { optional?: boolean; empty?: boolean } = {}): string | undefined {
    const value = this.#get(key, options.optional);
    if (value === undefined) return undefined;
    if (typeof value !== "string") {
      this.fail(TypeError, key, `must be a string, got ${kindOf(value, { values: true })}`);
    }
    if (value === "" && options.empty === false) {
      this.fail(TypeError, key, "must be a non-empty string");
    }
    return value;
  }

  number(key: string, options: { optional: true }): number | undefined;
  number(key: string, options?: { optional?: false }): number;
  number(key: string, options: { optional?: boolean } = {}): number | undefined {
    const value = this.#get(key, options.optional);
    if (value === undefined) return undefined;
    if (typeof value !== "number") {
      this.fail(TypeError, key, `must be a number, got ${kindOf(value, { values: true })}`);
    }
    if (!Number.isFinite(value) || value < 0) {
      this.fail(RangeError, key, `must be a finite number >= 0, got ${value}`);
    }
    return value;
  }

  integer(key: string, options: { optional: true }): number | undefined {
    const value = this.number(key, options);
    if (value !== undefined && !Number.isSafeInteger(value)) {
      this.fail(RangeError, key, `must be an integer >= 0, got ${value}`);
    }
    return value;
  }

  boolean(key: string, options: { optional: true }): boolean | undefined {
    const value = this.#get(key, options.optional);
    if (value !== undefined && typeof value !== "boolean") {
      this.fail(TypeError, key, `must be a boolean, got ${kindOf(value, { values: true })}`);
    }
    return value as boolean | undefined;
  }

  object(key: string): Record<string, unknown> {
    const value = this.#get(key, false);
    if (!isObject(value)) {
      this.fail(TypeError, key, `must be an object, got ${kindOf(value, { values: true })}`);
    }
    return value;
  }

  strings(key: string, options: { optional: true }): string[] | undefined {
    const value = this.#get(key, options.optional);
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) {
      this.fail(
        TypeError,
        key,
        `must be an array of strings, got ${kindOf(value, { values: true })}`,
      );
    }
    value.forEach((item, i) => {
      if (typeof item !== "string") {
        this.fail(
          TypeError,
          `${key}[${i}]`,
          `must be a string, got ${kindOf(item, { values: true })}`,
        );
      }
    });
    return [...value];
  }

  oneOf<const T extends string>(
    key: string,
    values: readonly T[],
    options: { optional?: boolean } = {},
  ): T {
    const value = this.#get(key, options.optional);
    if (value === undefined) return undefined as unknown as T;
    if (typeof value !== "string" || !(values as readonly string[]).includes(value)) {
      this.fail(
        typeof value === "string" ? RangeError : TypeError,
        key,
        `must be one of ${values.join(", ")}, got ${show(value)}`,
      );
    }
    return value as T;
  }

  /** `text` of `stream_delta`: one piece, or several (each a `text_delta`). */
  pieces(key: string): string[] {
    const value = this.#get(key, false);
    if (typeof value === "string") {
      if (value === "") this.fail(TypeError, key, "must be a non-empty string");
      return [value];
    }
    if (!Array.isArray(value) || value.length === 0) {
      this.fail(
        TypeError,
        key,
        `must be a string or a non-empty array of strings (one text_delta each), got ${
          kindOf(value, { values: true })
        }`,
      );
    }
    value.forEach((item, i) => {
      if (typeof item !== "string" || item === "") {
        this.fail(
          TypeError,
          `${key}[${i}]`,
          `must be a non-empty string, got ${kindOf(item, { values: true })}`,
        );
      }
    });
    return [...value];
  }

  /** `code` of `error`: an HTTP status from 400 to 599, or a named failure. */
  code(): number | FailureName | undefined {
    const value = this.data.code;
    if (value === undefined) return undefined;
    if (typeof value === "number") {
      if (!Number.isInteger(value) || value < 400 || value > 599) {
        this.fail(RangeError, "code", `must be an HTTP status from 400 to 599, got ${value}`);
      }
      return value;
    }
    if (typeof value === "string") {
      if (!isFailureName(value)) {
        this.fail(
          RangeError,
          "code",
          `must be an HTTP status or a named failure (${FAILURE_NAMES.join(", ")}), got ${
            show(value)
          }`,
        );
      }
      return value;
    }
    this.fail(
      TypeError,
      "code",
      `must be an HTTP status (a number) or a named failure (a string), got ${
        kindOf(value, { values: true })
      }`,
    );
  }

  /** `suggestions` of `permission_request`: rule strings (`Bash(git *)`) or updates. */
  suggestions(): PermissionSuggestion[] | undefined {
    const value = this.data.suggestions;
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) {
      this.fail(
        TypeError,
        "suggestions",
        `must be an array, got ${kindOf(value, { values: true })}`,
      );
    }
    return value.map((item, i) => {
      if (typeof item === "string") {
        const rule = /^([^()\s]+)(?:\((.*)\))?$/s.exec(item);
        if (!rule) {
          this.fail(
            RangeError,
            `suggestions[${i}]`,
            `must be a rule like "Bash(git *)" or "Read", got ${show(item)}`,
          );
        }
        return {
          type: "addRules",
          rules: [{
            toolName: rule[1],
            ...(rule[2] !== undefined ? { ruleContent: rule[2] } : {}),
          }],
          behavior: "allow",
          destination: "localSettings",
        };
      }
      if (!isObject(item) || typeof item.type !== "string") {
        this.fail(
          TypeError,
          `suggestions[${i}]`,
          `must be a rule string or a permission update object with a string 'type', got ${
            kindOf(item, { values: true })
          }`,
        );
      }
      return item as PermissionSuggestion;
    });
  }

  /** `questions` of `ask_user_question`, as `AskUserQuestion` takes them. */
  questions(): AskUserQuestionItem[] {
    const value = this.data.questions;
    if (!Array.isArray(value) || value.length === 0) {
      this.fail(
        TypeError,
        "questions",
        `must be a non-empty array of questions, got ${kindOf(value, { values: true })}`,
      );
    }
    return value.map((q, i) => {
      const at = `questions[${i}]`;
      if (!isObject(q)) {
        this.fail(TypeError, at, `must be an object, got ${kindOf(q, { values: true })}`);
      }
      const item: Params = new Params(this.command, `${this.path}.${at}`, q);
      item.checkKeys(["question", "header", "options", "multiSelect?"]);
      const options = q.options;
      if (!Array.isArray(options) || options.length === 0) {
        item.fail(
          TypeError,
          "options",
          `must be a non-empty array of choices, got ${kindOf(options, { values: true })}`,
        );
      }
      options.forEach((o, j) => {
        if (typeof o === "string") return;
        if (!isObject(o)) {
          item.fail(
            TypeError,
            `options[${j}]`,
            `must be a label or a {label, description} object, got ${kindOf(o, { values: true })}`,
          );
        }
        new Params(this.command, `${item.path}.options[${j}]`, o).string("label");
        new Params(this.command, `${item.path}.options[${j}]`, o).string("description");
      });
      return {
        question: item.string("question", { empty: false }),
        header: item.string("header"),
        options: options as AskUserQuestionItem["options"],
        ...(q.multiSelect !== undefined
          ? { multiSelect: item.boolean("multiSelect", { optional: true }) }
          : {}),
      };
    });
  }
}
