/**
 * Internal: the input and the answer text of `usesAskUserQuestion`, with its argument
 * checks. Not part of the public API.
 *
 * @module
 */

import type { ToolCall } from "../builders/tools.ts";
import { type At, checkNeed, fail, isRecord } from "./_builder_checks.ts";
import { kindOf } from "../wire/_kind_of.ts";
import type { AskUserQuestionItem } from "./exchange_options.ts";

/** The tool input of the questions, and the result the client's answers make. */
export function askUserQuestionInput(
  at: At,
  questions: AskUserQuestionItem[],
): {
  input: { questions: Array<Record<string, unknown>> };
  answered: (answers: unknown) => ToolCall["result"];
} {
  const method = "usesAskUserQuestion";
  const bad = (kind: typeof TypeError, problem: string): never =>
    fail(kind, at.name, at.path, `${method} needs ${problem}`);
  if (!Array.isArray(questions) || questions.length === 0) {
    bad(
      Array.isArray(questions) ? RangeError : TypeError,
      `questions (a non-empty array), got ${
        Array.isArray(questions) ? "an empty array" : kindOf(questions)
      }`,
    );
  }
  questions.forEach((q, i) => {
    const where = `questions[${i}]`;
    if (!isRecord(q)) bad(TypeError, `${where} to be an object, got ${kindOf(q)}`);
    checkNeed(at, method, [`${where}.question`, q.question, "text"]);
    checkNeed(at, method, [`${where}.header`, q.header, "text"]);
    checkNeed(at, method, [`${where}.multiSelect`, q.multiSelect, "boolean?"]);
    if (!Array.isArray(q.options) || q.options.length === 0) {
      bad(
        Array.isArray(q.options) ? RangeError : TypeError,
        `${where}.options (a non-empty array of choices), got ${
          Array.isArray(q.options) ? "an empty array" : kindOf(q.options)
        }`,
      );
    }
    q.options.forEach((o, j) => {
      if (typeof o === "string") return;
      if (!isRecord(o)) {
        bad(
          TypeError,
          `${where}.options[${j}] to be a label or a {label, description} object, got ${kindOf(o)}`,
        );
      }
      checkNeed(at, method, [`${where}.options[${j}].label`, o.label, "text"]);
      checkNeed(at, method, [`${where}.options[${j}].description`, o.description, "text"]);
    });
  });
  const input = {
    questions: questions.map((q) => ({
      question: q.question,
      header: q.header,
      options: q.options.map((o) => typeof o === "string" ? { label: o, description: o } : o),
      multiSelect: q.multiSelect ?? false,
    })),
  };
  // As the real CLI: the answers to the questions asked, in their order, each keyed by the
  // question's text; an answer under any other key is kept in tool_use_result but not read
  // (as the real CLI 2.1.328: none left, "The user did not answer
  // the questions.").
  const answered = (answers: unknown): ToolCall["result"] => {
    const map = answers && typeof answers === "object" ? answers as Record<string, unknown> : {};
    const listed = input.questions.flatMap(({ question }) => {
      const key = String(question);
      if (!Object.hasOwn(map, key)) return [];
      const a = map[key];
      return [`"${key}"="${Array.isArray(a) ? a.join(", ") : String(a)}"`];
    }).join(", ");
    return {
      content: listed === ""
        ? "The user did not answer the questions."
        : `Your questions have been answered: ${listed}. You can now continue with these answers in mind.`,
      isError: false,
      toolUseResult: { questions: input.questions, answers: map },
    };
  };
  return { input, answered };
}
