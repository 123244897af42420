/**
 * Internal: the message steps of scenario files (`say`, the tool steps and `together`):
 * their checks, with JSON paths, and the builder calls that add them. Not part of the
 * public API.
 *
 * @module
 */

import { isObject } from "../wire/frame.ts";
import type { Checker } from "./_checks.ts";
import { MAX_SAFE, PERMISSIONS } from "./_checks.ts";
import { defined } from "./_json_forms.ts";
import type { ExchangeBuilder } from "./exchange_builder.ts";
import type { AskUserQuestionItem, UsesOptions } from "./exchange_options.ts";
import type { MessagePart, Step } from "./step.ts";

/** The tool steps' action keys, in the order the schema lists them. */
export const TOOL_KINDS: readonly string[] = [
  "read",
  "write",
  "edit",
  "notebookEdit",
  "bash",
  "glob",
  "grep",
  "task",
  "tool",
  "askUserQuestion",
];

/** The keys of a tool step of `kind`: the tool, then its options. */
export function toolStepKeys(kind: string): Record<string, true> {
  return {
    [kind]: true,
    say: true,
    thinking: true,
    ...(kind === "askUserQuestion" ? {} : { permission: true }),
    ifDenied: true,
    untilInterrupt: true,
    delay: true,
    outputTokens: true,
    chunkSize: true,
    inputChunks: true,
  };
}

/** The fields of each tool's object: `true` if required. */
const TOOL_FIELDS: Record<string, Record<string, boolean>> = {
  read: { path: true, content: true, offset: false, limit: false },
  write: { path: true, content: true, originalFile: false },
  edit: { path: true, oldString: true, newString: true, replaceAll: false, originalFile: false },
  bash: { command: true, stdout: false, stderr: false, exitCode: false, description: false },
  notebookEdit: { path: true, newSource: true, cellId: false, cellType: false, editMode: false },
  glob: { pattern: true, files: true, path: false },
  grep: {
    pattern: true,
    outputMode: false,
    path: false,
    glob: false,
    caseInsensitive: false,
    files: false,
    lines: false,
    counts: false,
  },
  task: {
    description: true,
    prompt: true,
    result: true,
    subagentType: false,
    runInBackground: false,
    tools: false,
  },
  tool: { name: true, input: true, result: false, isError: false },
  askUserQuestion: { questions: true },
};

const BLOCK_TYPES = ["text", "thinking", "redacted_thinking", "tool_use"];
type Fields = Record<string, unknown>;
/** A checked tool step: its kind, its object, where it is. */
type ToolItem = { kind: string; tool: Fields; where: string };

/** Checks and adds `say`, tool and `together` steps. */
export class ToolSteps {
  #c: Checker;
  #steps: (items: unknown[], path: string) => Step[];

  /** `steps` builds file steps into steps (for `ifDenied`). */
  constructor(checker: Checker, steps: (items: unknown[], path: string) => Step[]) {
    this.#c = checker;
    this.#steps = steps;
  }

  /** A delay modifier: ms, or a `{baseMs, jitterMs}` delay. */
  delay(value: unknown, path: string): void {
    if (typeof value === "number") return this.#c.ms(value, path);
    if (!isObject(value)) this.#c.type(path, "a number of ms or a {baseMs, jitterMs} delay", value);
    this.#c.knownKeys(value, path, { baseMs: true, jitterMs: true }, "a delay field");
    this.#c.delay(value, path);
  }

  /** `delay`, `outputTokens` and `chunkSize` of a message step. */
  #messageOptions(step: Fields, path: string): void {
    if (step.delay !== undefined) this.delay(step.delay, `${path}.delay`);
    if (step.outputTokens !== undefined) {
      this.#c.integer(step.outputTokens, `${path}.outputTokens`, 0, MAX_SAFE);
    }
    if (step.chunkSize !== undefined) {
      this.#c.integer(step.chunkSize, `${path}.chunkSize`, 1, MAX_SAFE);
    }
  }

  /** `{"say": ..., "thinking"?, "chunks"?, ...}`: `respond`. */
  say(builder: ExchangeBuilder, step: Fields, path: string): void {
    const c: Checker = this.#c;
    const at = `${path}.say`;
    if (Array.isArray(step.say)) {
      if (step.say.length === 0) {
        c.fail(RangeError, at, "must have at least one part, got an empty array");
      }
      step.say.forEach((part, i) => {
        if (typeof part !== "string") this.#block(part, `${at}[${i}]`);
      });
    } else if (typeof step.say !== "string") {
      c.type(at, "a string or an array of strings and content blocks", step.say);
    }
    if (step.thinking !== undefined) c.string(step.thinking, `${path}.thinking`);
    this.#messageOptions(step, path);
    if (step.chunks !== undefined) this.#lists(step.chunks, `${path}.chunks`);
    const keys = ["thinking", "delay", "outputTokens", "chunkSize", "chunks"];
    builder.respond(step.say as string | MessagePart[], defined(step, keys));
  }

  #block(value: unknown, path: string): void {
    const c: Checker = this.#c;
    const block = c.object(value, path, "a string or a content block");
    switch (c.oneOf(block.type, `${path}.type`, BLOCK_TYPES)) {
      case "text":
        return void c.string(block.text, `${path}.text`);
      case "thinking":
        c.string(block.thinking, `${path}.thinking`);
        return void c.string(block.signature, `${path}.signature`);
      case "redacted_thinking":
        return void c.string(block.data, `${path}.data`);
      case "tool_use":
        c.string(block.name, `${path}.name`, true);
        c.object(block.input, `${path}.input`, "an object");
        if (block.id !== undefined) c.string(block.id, `${path}.id`, true);
    }
  }

  #lists(value: unknown, path: string): void {
    if (!Array.isArray(value)) this.#c.type(path, "an array of string arrays", value);
    value.forEach((list, i) => this.#c.stringList(list, `${path}[${i}]`, "delta pieces"));
  }

  /** `{"together": [tool steps], "say"?, ...}`: `usesTogether`. */
  together(builder: ExchangeBuilder, step: Fields, path: string): void {
    const c: Checker = this.#c;
    const at = `${path}.together`;
    if (!Array.isArray(step.together)) c.type(at, "an array of tool steps", step.together);
    if (step.together.length === 0) {
      c.fail(RangeError, at, "must have at least one tool step, got an empty array");
    }
    const items = this.#toolItems(step.together, at);
    if (step.say !== undefined) c.string(step.say, `${path}.say`);
    if (step.thinking !== undefined) c.string(step.thinking, `${path}.thinking`);
    this.#messageOptions(step, path);
    builder.usesTogether(
      (tools) => items.forEach(({ kind, tool, where }) => this.add(tools, kind, tool, where)),
      defined(step, ["say", "thinking", "delay", "outputTokens", "chunkSize"]),
    );
  }

  /** Checks a list of tool steps (`together`, a subagent's `tools`): each one's kind and keys. */
  #toolItems(list: unknown, at: string): ToolItem[] {
    const c: Checker = this.#c;
    if (!Array.isArray(list)) c.type(at, "an array of tool steps", list);
    return list.map((item, i) => {
      const where = `${at}[${i}]`;
      const tool = c.object(item, where, "a tool step object");
      const kinds = TOOL_KINDS.filter((kind) => tool[kind] !== undefined);
      if (kinds.length !== 1) {
        c.fail(
          TypeError,
          where,
          `must be a tool step with one of ${TOOL_KINDS.join(", ")}, got ${
            kinds.length === 0 ? "none" : kinds.join(" and ")
          }`,
        );
      }
      c.knownKeys(tool, where, toolStepKeys(kinds[0]), `a field of '${kinds[0]}' steps`);
      return { kind: kinds[0], tool, where };
    });
  }

  /** A task step's subagent tools, checked (none: `undefined`). */
  #subagentTools(list: unknown, at: string): ToolItem[] | undefined {
    return list === undefined ? undefined : this.#toolItems(list, at);
  }

  /** A tool step of `kind` (its keys already checked): the `uses*` helper. */
  add(builder: ExchangeBuilder, kind: string, step: Fields, path: string): void {
    const c: Checker = this.#c;
    const at = `${path}.${kind}`;
    const t = c.object(step[kind], at, `an object of the ${kind} tool's fields`);
    const fields = TOOL_FIELDS[kind];
    c.knownKeys(t, at, fields, `a field of the ${kind} tool`);
    for (const [field, required] of Object.entries(fields)) {
      if (required && !(field in t)) c.type(`${at}.${field}`, this.#need(kind, field), undefined);
    }
    const str = (field: string, nonEmpty = false) => {
      if (t[field] !== undefined) c.string(t[field], `${at}.${field}`, nonEmpty);
    };
    switch (kind) {
      case "read":
        str("path", true);
        if (t.content !== null) c.string(t.content, `${at}.content`);
        for (const field of ["offset", "limit"]) {
          if (t[field] !== undefined) c.integer(t[field], `${at}.${field}`, 0, MAX_SAFE);
        }
        break;
      case "write":
        str("path", true);
        str("content");
        if (t.originalFile !== null) str("originalFile");
        break;
      case "edit":
        str("path", true);
        ["oldString", "newString", "originalFile"].forEach((field) => str(field));
        if (t.replaceAll !== undefined) c.boolean(t.replaceAll, `${at}.replaceAll`);
        break;
      case "bash":
        str("command", true);
        ["stdout", "stderr", "description"].forEach((field) => str(field));
        if (t.exitCode !== undefined) c.integer(t.exitCode, `${at}.exitCode`, 0, 255);
        break;
      case "notebookEdit":
        str("path", true);
        str("newSource");
        str("cellId", true);
        if (t.cellType !== undefined) c.oneOf(t.cellType, `${at}.cellType`, ["code", "markdown"]);
        if (t.editMode !== undefined) {
          c.oneOf(t.editMode, `${at}.editMode`, ["replace", "insert", "delete"]);
        }
        break;
      case "glob":
        str("pattern", true);
        str("path", true);
        c.stringList(t.files, `${at}.files`, "file names");
        break;
      case "grep":
        ["pattern", "path", "glob"].forEach((field) => str(field, true));
        if (t.outputMode !== undefined) {
          c.oneOf(t.outputMode, `${at}.outputMode`, ["files_with_matches", "content", "count"]);
        }
        if (t.caseInsensitive !== undefined) c.boolean(t.caseInsensitive, `${at}.caseInsensitive`);
        for (const field of ["files", "lines"]) {
          if (t[field] !== undefined) c.stringList(t[field], `${at}.${field}`, "strings");
        }
        if (t.counts !== undefined) {
          const counts = c.object(t.counts, `${at}.counts`, "an object of counts by file");
          for (const [file, n] of Object.entries(counts)) {
            c.integer(n, `${at}.counts[${JSON.stringify(file)}]`, 1, MAX_SAFE);
          }
        }
        break;
      case "task":
        ["prompt", "result"].forEach((field) => str(field));
        ["description", "subagentType"].forEach((field) => str(field, true));
        break;
      case "tool":
        str("name", true);
        c.object(t.input, `${at}.input`, "an object");
        str("result");
        if (t.isError !== undefined) c.boolean(t.isError, `${at}.isError`);
        break;
      case "askUserQuestion":
        this.#questions(t.questions, `${at}.questions`);
    }
    this.#call(builder, kind, t, { options: this.#options(step, path), at });
  }

  /** Adds a checked tool step with its `uses*` helper. */
  /** Checks that a tool's optional field is a boolean, if given. */
  #flag(t: Fields, field: string, at: string): void {
    if (t[field] !== undefined) this.#c.boolean(t[field], `${at}.${field}`);
  }

  #call(
    builder: ExchangeBuilder,
    kind: string,
    t: Fields,
    { options, at }: { options: UsesOptions; at: string },
  ): void {
    const more = (keys: string[]) => ({ ...options, ...defined(t, keys) });
    switch (kind) {
      case "read":
        builder.usesRead(
          t.path as string,
          more(["content", "offset", "limit"]) as UsesOptions & { content: string | null },
        );
        return;
      case "write":
        builder.usesWrite(
          t.path as string,
          more(["content", "originalFile"]) as UsesOptions & { content: string },
        );
        return;
      case "edit":
        builder.usesEdit(
          t.path as string,
          more(["oldString", "newString", "replaceAll", "originalFile"]) as UsesOptions & {
            oldString: string;
            newString: string;
          },
        );
        return;
      case "bash":
        builder.usesBash(
          t.command as string,
          more(["stdout", "stderr", "exitCode", "description"]),
        );
        return;
      case "notebookEdit":
        builder.usesNotebookEdit(
          t.path as string,
          more(["newSource", "cellId", "cellType", "editMode"]) as UsesOptions & {
            newSource: string;
          },
        );
        return;
      case "glob":
        builder.usesGlob(
          t.pattern as string,
          more(["files", "path"]) as UsesOptions & { files: string[] },
        );
        return;
      case "grep":
        builder.usesGrep(
          t.pattern as string,
          more(["outputMode", "path", "glob", "caseInsensitive", "files", "lines", "counts"]),
        );
        return;
      case "task": {
        this.#flag(t, "runInBackground", at);
        const items = this.#subagentTools(t.tools, `${at}.tools`);
        builder.usesTask(
          t.description as string,
          {
            ...more(["prompt", "result", "subagentType", "runInBackground"]),
            ...(items
              ? {
                tools: (tools: ExchangeBuilder) =>
                  items.forEach(({ kind, tool, where }) => this.add(tools, kind, tool, where)),
              }
              : {}),
          } as UsesOptions & { prompt: string; result: string },
        );
        return;
      }
      case "tool":
        builder.usesTool(t.name as string, t.input as Fields, more(["result", "isError"]));
        return;
      case "askUserQuestion":
        builder.usesAskUserQuestion(t.questions as AskUserQuestionItem[], options);
    }
  }

  #need(kind: string, field: string): string {
    if (kind === "read" && field === "content") return "a string, or null for a missing file";
    if (field === "input") return "an object";
    if (field === "files") return "an array of file names";
    if (field === "questions") return "a non-empty array of questions";
    return field === "path" || field === "command" || field === "name" || field === "pattern" ||
        field === "description"
      ? "a non-empty string"
      : "a string";
  }

  /** The options beside a tool key (`ifDenied` steps built). */
  #options(step: Fields, path: string): UsesOptions {
    const c: Checker = this.#c;
    if (step.say !== undefined) c.string(step.say, `${path}.say`);
    if (step.thinking !== undefined) c.string(step.thinking, `${path}.thinking`);
    if (step.permission !== undefined) c.oneOf(step.permission, `${path}.permission`, PERMISSIONS);
    if (step.untilInterrupt !== undefined && typeof step.untilInterrupt !== "boolean") {
      c.type(`${path}.untilInterrupt`, "a boolean", step.untilInterrupt);
    }
    this.#messageOptions(step, path);
    if (step.inputChunks !== undefined) {
      c.stringList(step.inputChunks, `${path}.inputChunks`, "input pieces");
    }
    const options = defined(step, [
      "say",
      "thinking",
      "permission",
      "untilInterrupt",
      "delay",
      "outputTokens",
      "chunkSize",
      "inputChunks",
    ]) as UsesOptions;
    const ifDenied = step.ifDenied;
    if (ifDenied === undefined || typeof ifDenied === "string") {
      return ifDenied === undefined ? options : { ...options, ifDenied };
    }
    if (!Array.isArray(ifDenied)) {
      c.type(`${path}.ifDenied`, "a reply text or an array of steps", ifDenied);
    }
    return { ...options, ifDenied: this.#steps(ifDenied, `${path}.ifDenied`) };
  }

  #questions(value: unknown, path: string): void {
    const c: Checker = this.#c;
    if (!Array.isArray(value)) c.type(path, "a non-empty array of questions", value);
    if (value.length === 0) c.fail(RangeError, path, "must have at least one question, got none");
    value.forEach((item, i) => {
      const at = `${path}[${i}]`;
      const q = c.object(item, at, "a question object");
      const keys = { question: true, header: true, options: true, multiSelect: true };
      c.knownKeys(q, at, keys, "a question field");
      c.string(q.question, `${at}.question`);
      c.string(q.header, `${at}.header`);
      if (q.multiSelect !== undefined) c.boolean(q.multiSelect, `${at}.multiSelect`);
      if (!Array.isArray(q.options)) {
        c.type(`${at}.options`, "a non-empty array of choices", q.options);
      }
      if (q.options.length === 0) {
        c.fail(RangeError, `${at}.options`, "must have at least one choice, got none");
      }
      q.options.forEach((option, j) => {
        if (typeof option === "string") return;
        const where = `${at}.options[${j}]`;
        const o = c.object(option, where, "a label or a {label, description} object");
        c.knownKeys(o, where, { label: true, description: true }, "a choice field");
        c.string(o.label, `${where}.label`);
        c.string(o.description, `${where}.description`);
      });
    });
  }
}
