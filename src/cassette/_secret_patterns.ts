/**
 * The secrets `scrubTape` replaces and `lintTape` reports, the same list for both: Anthropic,
 * OpenAI, GitHub, GitLab, AWS, Slack, Google, Stripe, npm, Hugging Face and SendGrid token
 * formats, JWTs and private keys, secret-named keys in config lines, `curl -u`, bearer and
 * `Authorization:` credentials, secrets in URLs (query, fragment, `user:pass@`), `NAME=value`
 * assignments, secret-named JSON members in text (also escaped inside a JSON string, and
 * numbers), and any of these percent-encoded or base64-encoded. Internal.
 *
 * @module
 */

import type { Detector } from "./_detector.ts";

/** Key names (normalized: lower case, `_` between words) whose values are secrets. */
const SECRET_KEY_NAMES = new Set([
  "anthropic_api_key",
  "anthropic_auth_token",
  "claude_code_oauth_token",
  "api_key",
  "x_api_key",
  "authorization",
  "proxy_authorization",
  "access_token",
  "refresh_token",
  "oauth_token",
  "id_token",
  "client_secret",
  "password",
  "cookie",
  "set_cookie",
]);
/** Endings of secret key names (`GITHUB_TOKEN`, `db_password`, `awsSecretAccessKey`). */
const SECRET_KEY_ENDING =
  /(?:^|_)(?:api_?key|access_?key(?:_id)?|secret(?:_access)?_?key|private_?key|token|secret|password|passwd|pwd|passphrase|credentials?)$/;
/** Keys whose numbers are secrets too (a numeric password or PIN). */
const NUMBER_SECRET_ENDING = /(?:^|_)(?:password|passwd|pwd|passphrase|pin|secret)$/;

/** `githubToken`, `GITHUB-TOKEN` → `github_token`. */
function normalizeKey(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().replace(/[-.\s]+/g, "_");
}

/**
 * The placeholder for the value of a secret-named key, or `undefined` for other keys;
 * `value` decides for numbers (only password-like keys hide numbers).
 */
export function secretKeyPlaceholder(key: string, value?: unknown): string | undefined {
  const k = normalizeKey(key);
  if (!SECRET_KEY_NAMES.has(k) && !SECRET_KEY_ENDING.test(k)) return undefined;
  if (typeof value === "number" && !NUMBER_SECRET_ENDING.test(k)) return undefined;
  return /api_?key/.test(k)
    ? "<API_KEY>"
    : /token|authorization|cookie/.test(k)
    ? "<TOKEN>"
    : "<SECRET>";
}

/** Values of a secret-named key that are code, not a secret (`apiKey: string`, `= None`). */
const CODE_WORDS = new Set([
  "string",
  "number",
  "boolean",
  "any",
  "unknown",
  "undefined",
  "null",
  "None",
  "nil",
  "true",
  "false",
  "never",
  "object",
  "str",
  "bytes",
  "int",
  "Optional",
  "required",
  "optional",
]);

/** Parameter names of URLs whose values are secrets. */
const URL_SECRET_PARAMS =
  "api[_-]?key|apikey|key|access[_-]?token|refresh[_-]?token|id[_-]?token|token|auth|" +
  "auth[_-]?token|password|passwd|secret|client[_-]?secret|sig|signature|" +
  "x-amz-signature|x-amz-credential|x-amz-security-token|code_verifier";

/** Formats of provider tokens, with their placeholders (before the generic detectors). */
const TOKEN_FORMATS: Array<[what: string, pattern: RegExp, placeholder: string]> = [
  ["an Anthropic OAuth token (sk-ant-o…)", /sk-ant-o[ar]t\d*-[\w-]{8,}/g, "<OAUTH_TOKEN>"],
  ["an Anthropic API key (sk-ant-…)", /sk-ant-[\w-]{8,}/g, "<API_KEY>"],
  [
    "an OpenAI key (sk-…)",
    /(?<![\w-])sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/g,
    "<OPENAI_KEY>",
  ],
  [
    "a GitHub token",
    /(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})/g,
    "<GITHUB_TOKEN>",
  ],
  [
    "an AWS access key id",
    /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])/g,
    "<AWS_KEY_ID>",
  ],
  ["a Slack token", /(?<![\w-])(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}/g, "<SLACK_TOKEN>"],
  [
    "a Slack webhook",
    /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[\w\/-]+/g,
    "<SLACK_WEBHOOK>",
  ],
  [
    "a Stripe key",
    /(?<![\w-])(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}|(?<![\w-])whsec_[0-9A-Za-z]{24,}/g,
    "<STRIPE_KEY>",
  ],
  ["an npm token", /(?<![\w-])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g, "<NPM_TOKEN>"],
  ["a GitLab token", /(?<![\w-])gl(?:pat|dt|rt|ptt|cbt)-[\w-]{20,}/g, "<GITLAB_TOKEN>"],
  ["a Hugging Face token", /(?<![\w-])hf_[A-Za-z0-9]{30,}/g, "<HF_TOKEN>"],
  ["a SendGrid key", /(?<![\w-])SG\.[\w-]{16,32}\.[\w-]{16,64}/g, "<SENDGRID_KEY>"],
  ["a Google API key", /(?<![\w-])AIza[0-9A-Za-z_-]{35}/g, "<GOOGLE_API_KEY>"],
  ["a Google OAuth token", /(?<![\w-])ya29\.[0-9A-Za-z_-]{20,}/g, "<GOOGLE_TOKEN>"],
  ["a JSON Web Token", /(?<![\w-])eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}/g, "<JWT>"],
  [
    "a private key",
    /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
    "<PRIVATE_KEY>",
  ],
];

/** The detectors of secrets, in the order they apply (the same for every tape). */
export const SECRET_DETECTORS: readonly Detector[] = [
  ...TOKEN_FORMATS.map(([what, pattern, replace]): Detector => ({
    code: "secret",
    what,
    pattern,
    replace,
  })),
  {
    code: "secret",
    what: "credentials in an Authorization header",
    pattern:
      /\b((?:proxy-)?authorization\s*[:=]\s*)(basic|bearer|token|digest|negotiate)\s+[^\s"'\\,;<]+/gi,
    replace: "$1$2 <TOKEN>",
  },
  {
    code: "secret",
    what: "a bearer token",
    pattern: /\b(bearer)\s+(?!<)[\w.~+\/=-]{8,}/gi,
    replace: "$1 <TOKEN>",
  },
  {
    code: "secret",
    what: "a secret in a URL parameter",
    pattern: new RegExp(`([?&#;](?:${URL_SECRET_PARAMS})=)(?!<)([^&#\\s"'<>\\\\]+)`, "gi"),
    replace: "$1<SECRET>",
  },
  {
    code: "secret",
    what: "a password in a URL",
    pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@\/"'<>]+:)(?!<)[^\s@\/"'<>]+@/gi,
    replace: "$1<SECRET>@",
  },
  {
    code: "secret",
    what: "a secret in an environment assignment",
    pattern:
      /\b([A-Z][A-Z0-9_]*(?:API_KEY|ACCESS_KEY|_KEY|_TOKEN|SECRET|PASSWORD|PASSWD|_PWD|CREDENTIALS?))=(["']?)([^\s"'<][^\s"']*)/g,
    replace: (_m, name, quote) =>
      `${name}=${quote}${
        /API_KEY/.test(name) ? "<API_KEY>" : /TOKEN/.test(name) ? "<TOKEN>" : "<SECRET>"
      }`,
  },
  {
    code: "secret",
    what: "a password on a command line (curl -u user:password)",
    pattern: /((?:^|\s)(?:-u|--user|--proxy-user)[\s=]+["']?[^\s:"'<]+:)(?!<)[^\s"']+/g,
    replace: "$1<SECRET>",
  },
  {
    code: "secret",
    what: "a secret-named key in a config line (key = value, key: value)",
    // ini, YAML, .env and .npmrc lines (`aws_secret_access_key = …`, `password: …`,
    // `//registry/:_authToken=…`); a value that reads as code (a call, a dotted path, a
    // variable) is left alone, and a JSON member is the next detector's
    pattern:
      /(^|[\s{,;(:])([A-Za-z_][\w.-]*)([ \t]*(?:=|:(?=[ \t]))[ \t]*)(["']?)([^\s"'<>,;(){}[\]$`][^\s"',;(){}[\]`]*)(?=[\s"',;)}\]`[]|$)/gm,
    replace: (match, lead, key, sep, quote, value) => {
      if (/^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/.test(value) || CODE_WORDS.has(value)) return match;
      const number = /^-?\d[\d.eE+-]*$/.test(value) ? Number(value) : undefined;
      const placeholder = secretKeyPlaceholder(key, number ?? value);
      return placeholder && !/^(?:proxy_)?authorization$/.test(normalizeKey(key))
        ? `${lead}${key}${sep}${quote}${placeholder}`
        : match;
    },
  },
  {
    code: "secret",
    what: "a secret-named JSON value in text",
    // also escaped inside a JSON string (\"password\":\"x\"), and numbers
    pattern: /(\\*)"([\w.-]+)\1"(\s*:\s*)(?:\1"([^"\\<][^"\\]*)\1"|(-?\d[\d.eE+-]*))/g,
    replace: (match, slashes, key, colon, text, number) => {
      const placeholder = secretKeyPlaceholder(key, text === undefined ? Number(number) : text);
      return placeholder
        ? `${slashes}"${key}${slashes}"${colon}${slashes}"${placeholder}${slashes}"`
        : match;
    },
  },
];

/** `text` with the plain secret detectors applied (no encoded forms). */
function scrubPlain(text: string): string {
  let out = text;
  for (const d of SECRET_DETECTORS) {
    d.pattern.lastIndex = 0;
    out = out.replace(d.pattern, d.replace as string);
  }
  return out;
}

/** Secrets inside percent-encoded and base64-encoded text (decoded, checked, replaced). */
export const ENCODED_DETECTORS: readonly Detector[] = [
  {
    code: "secret",
    what: "a percent-encoded secret",
    // a whole run of URL characters holding a %XX; starting only where a run starts keeps it
    // linear (without the lookbehind, each position of a long run without "%" was tried to the
    // run's end: a 3 MB text took minutes to lint)
    pattern: /(?<![\w.~+%=&:\/?#-])[\w.~+%=&:\/?#-]*%[0-9A-Fa-f]{2}[\w.~+%=&:\/?#-]*/g,
    replace: (match) => {
      let decoded: string;
      try {
        decoded = decodeURIComponent(match.replaceAll("+", " "));
      } catch {
        return match;
      }
      if (decoded === match) return match;
      const scrubbed = scrubPlain(decoded);
      return scrubbed === decoded ? match : encodeURIComponent(scrubbed);
    },
  },
  {
    code: "secret",
    what: "a base64-encoded secret",
    // up to 8192 characters (6 KB of text): a longer run is data (an image, a file), not an
    // encoded secret, and matching a run of any length overflowed the regex engine's stack
    pattern: /(?<![\w+\/-])[A-Za-z0-9+\/_-]{16,8192}={0,2}(?![\w+\/=-])/g,
    replace: (match) => {
      const decoded = base64Text(match);
      if (decoded === undefined) return match;
      return scrubPlain(decoded) === decoded ? match : "<BASE64_SECRET>";
    },
  },
];

/** The text `run` encodes in base64 (standard or URL-safe), if it decodes to text. */
function base64Text(run: string): string | undefined {
  const body = run.replace(/=+$/, "").replaceAll("-", "+").replaceAll("_", "/");
  if (body.length % 4 === 1) return undefined;
  let binary: string;
  try {
    binary = atob(body + "=".repeat((4 - (body.length % 4)) % 4));
  } catch {
    return undefined;
  }
  // text only: a secret is printable; binary data (an image, a signature) is left alone
  return /^[\x20-\x7e\t\r\n]*$/.test(binary) ? binary : undefined;
}
