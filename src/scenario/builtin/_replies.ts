/**
 * Internal: the texts the predefined scenarios share (the recordings' where they have
 * one). Not part of the public API.
 *
 * @module
 */

/** Greetings: "hello", "hi" or "hey" as a word, in any case. */
export const GREETING_TRIGGER: RegExp = /\b(?:hello|hi|hey)\b/i;

/** The real CLI's answer to "hello", as the recorded sessions give it. */
export const GREETING = "Hello! How can I help you today?";

/** The output tokens the recordings report for {@linkcode GREETING}. */
export const GREETING_TOKENS = 25;

/** The text reply to any other prompt. */
export const REPLY = "I can help with that.";

/** The working directory the scenarios with files report (where their files are). */
export const PROJECT = "/home/user/project";

/** `notes.txt` of the recordings. */
export const NOTES =
  "Project notes\n=============\n1. The build uses make.\n2. Tests live in tests/.\n3. Release on Fridays.\n";

/** `todo.txt` of the recordings. */
export const TODO = "TODO\n- write docs\n- fix flaky test\n";
