/**
 * Scrubbing: a tape without secrets or the recording machine's paths, fit to commit.
 *
 * @module
 */

import { requireTape } from "./tape.ts";
import { detectorValues, scrubJson, scrubText, valueDetectors } from "./_detectors.ts";
import { SECRET_DETECTORS } from "./_secret_patterns.ts";
import { scrubSplitSecrets } from "./_split_secrets.ts";
import type { ScrubOptions } from "./scrub_options.ts";
import type { Tape, TapeEntry, TapeHeader } from "./tape.ts";

/**
 * A copy of `tape` with secrets and machine paths replaced by stable placeholders, inside
 * frames' decoded strings (recursively; keys untouched, so the JSON stays valid), raw lines,
 * stderr text and the header (its `args` and every other string).
 *
 * Always replaced (the list `lintTape` reports as secrets): Anthropic keys and OAuth tokens
 * (`<API_KEY>`, `<OAUTH_TOKEN>`), OpenAI keys, GitHub, GitLab, Slack, Google, npm and Hugging
 * Face tokens, Stripe and SendGrid keys, AWS access key ids, Slack webhooks, JWTs and private
 * keys (each by its own placeholder), secret-named keys in config lines (`aws_secret_access_key =
 * …`, YAML `password: …`, `.npmrc` `_authToken=…`; a value that reads as code is left), `curl -u
 * user:password`,
 * `Authorization: Basic …` / `Bearer …` credentials, secret URL parameters
 * (`?api_key=`, `#access_token=`, …) and `user:password@` in URLs, `NAME=value` for `*API_KEY`,
 * `*_KEY`, `*_TOKEN`, `*SECRET`, `*PASSWORD` names, the values of secret-named keys
 * (`ANTHROPIC_API_KEY`, `GITHUB_TOKEN`, `apiKey`, `authorization`, `access_token`, a numeric
 * `password`, …) whether they are JSON members or JSON text inside a string (escaped too), any
 * of these percent-encoded or base64-encoded, a secret split across a message's stream deltas
 * (its pieces rewritten so they join to the placeholder), and `http://127.0.0.1:PORT`-style
 * loopback base URLs → `<BASE_URL>`. From the options, the
 * tape and the machine: the cwd → `<CWD>`, its project slug → `<CWD_SLUG>`, home → `<HOME>`,
 * temp dir → `<TMP>`, user name → `<USER>`, host name → `<HOST>`; a path also in its real-path
 * and macOS `/private` forms, longest first, only where it is a whole path (`/a/b` not in
 * `/a/bc`).
 *
 * Deterministic for the same tape and values, and idempotent (scrubbing twice = once) as long
 * as the caller's replacements do not bring back what they replace. The entries' `line`,
 * times, the ending and `source` are kept.
 *
 * @example Scrubbing a recording
 * ```ts
 * import { scrubTape, type Tape } from "@x/claude-mock/cassette";
 * const tape: Tape = {
 *   header: { version: 1, args: ["--settings", "/home/ada/app/.claude.json"] },
 *   entries: [
 *     { t: 0, dir: "cli->sdk", line: 2, frame: { type: "system", subtype: "init", cwd: "/home/ada/app" } },
 *     { t: 5, dir: "stderr", line: 3, text: "ANTHROPIC_API_KEY=sk-ant-api03-abcdefgh1234 via http://127.0.0.1:8123/v1" },
 *   ],
 * };
 * const clean = scrubTape(tape, { home: "/home/ada", machine: false });
 * console.log(clean.header.args); // [ "--settings", "<CWD>/.claude.json" ]
 * console.log(clean.entries[1]); // { ..., text: "ANTHROPIC_API_KEY=<API_KEY> via <BASE_URL>/v1" }
 * ```
 *
 * @example Own replacements and a last hook
 * ```ts
 * import { scrubTape, type Tape } from "@x/claude-mock/cassette";
 * const tape: Tape = {
 *   header: { version: 1 },
 *   entries: [{ t: 0, dir: "cli->sdk", line: 2, frame: { type: "user", text: "order #4711 for Ada" } }],
 * };
 * const clean = scrubTape(tape, {
 *   machine: false,
 *   replacements: [[/#\d+/, "#<ORDER>"], ["Ada", "<NAME>"]],
 *   beforePersist: (t) => ({ ...t, header: { ...t.header, scrubbed: true } }),
 * });
 * console.log(clean.entries[0]); // { ..., frame: { type: "user", text: "order #<ORDER> for <NAME>" } }
 * console.log(clean.header.scrubbed); // true
 * ```
 */
export function scrubTape(tape: Tape, options: ScrubOptions = {}): Tape {
  requireTape(tape, "Cannot scrub tape");
  const detectors = valueDetectors(detectorValues(tape, options, options.machine ?? true));
  const entries = tape.entries.map((entry): TapeEntry => {
    if ("frame" in entry) {
      return { ...entry, frame: scrubJson(entry.frame, detectors) as typeof entry.frame };
    }
    if ("raw" in entry) return { ...entry, raw: scrubText(entry.raw, detectors) };
    return { ...entry, text: scrubText(entry.text, detectors) };
  });
  const scrubbed: Tape = {
    ...tape,
    header: scrubJson(tape.header, detectors) as TapeHeader,
    entries: scrubSplitSecrets(entries, SECRET_DETECTORS),
    ...(tape.ending ? { ending: { ...tape.ending } } : {}),
  };
  return options.beforePersist ? options.beforePersist(scrubbed) : scrubbed;
}
