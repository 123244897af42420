// Helpers for the node:test suite that scripts/npm_check.ts runs in a fresh Node project
// with the packed @x/claude-mock and the real Agent SDK installed.
import { readFileSync, statSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { query } from "@anthropic-ai/claude-agent-sdk";

/** Every message of one query(), and the error it threw (if any). */
export async function collect(prompt, options) {
  const messages = [];
  try {
    for await (const message of query({ prompt, options })) messages.push(message);
    return { messages };
  } catch (error) {
    return { messages, error };
  }
}

/** `type` or `type/subtype` of each message. */
export function kinds(messages) {
  return messages.map((m) => (typeof m.subtype === "string" ? `${m.type}/${m.subtype}` : m.type));
}

/** The installed SDK's package.json (found beside the entry Node resolves). */
export function installedSdk() {
  const entry = fileURLToPath(import.meta.resolve("@anthropic-ai/claude-agent-sdk"));
  return JSON.parse(readFileSync(join(dirname(entry), "package.json"), "utf8"));
}

/** An environment variable the harness must set (a test never guesses it). */
export function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this suite through scripts/npm_check.ts`);
  return value;
}

/** PATH without any folder that holds a `deno` executable: what runs here runs on Node alone. */
export function pathWithoutDeno(path = process.env.PATH ?? "") {
  return path.split(delimiter).filter((dir) => {
    try {
      statSync(join(dir, "deno"));
      return false;
    } catch {
      return true;
    }
  }).join(delimiter);
}

/** The test project's root (the harness runs node --test there). */
export const projectDir = process.cwd();
