// Scrub and lint against a corpus of secret forms (issue 21 item 6): every form the issue lists
// and the common token formats of GitHub, AWS, Slack, Google, OpenAI and Anthropic. For each:
// lint reports a secret on the raw tape, the scrubbed tape holds none of it and lints clean, and
// scrubbing twice is scrubbing once. Then a scrubbed real recording still replays through the
// real SDK exactly as the scrubbed tape says.
import assert from "node:assert/strict";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { lintTape, parseTape, scrubTape, SnapshotPlayer, type Tape } from "../cassette.ts";
import { fromFileUrl } from "./_paths.ts";

// Tokens are put together at run time: no format-valid token sits in the source as one string.
const j = (...parts: string[]) => parts.join("");
const ANTHROPIC = j("sk-ant-", "api03-", "Zq3vX9kLmN2pR7tY", "-wB4cD6eF8gH0jK");
const OAUTH = j("sk-ant-", "oat01-", "Pq9rS8tU7vW6xY5z", "A4bC3dE2");
const OPENAI = j("sk-", "proj-", "Ab12Cd34Ef56Gh78Ij90Kl12Mn34");
const OPENAI_OLD = j("sk-", "T3BlbkFJ", "abcdefghijklmnopqrstuv");
const GITHUB = j("gh", "p_", "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5");
const GITHUB_OAUTH = j("gh", "o_", "Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa");
const GITHUB_PAT = j(
  "github",
  "_pat_",
  "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEF",
);
const AWS_ID = j("AK", "IA", "IOSFODNN7EXAMPLE");
const AWS_SECRET = j("wJalrXUtnFEMI", "/K7MDENG/bPxRfiCY", "EXAMPLEKEY");
const SLACK_BOT = j("xo", "xb-", "1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx");
const SLACK_USER = j("xo", "xp-", "1234567890-1234567890-1234567890-abcdef0123456789");
const SLACK_HOOK = j(
  "https://hooks.slack.com/services/",
  "T0000000/B0000000/",
  "XXXXXXXXXXXXXXXXXXXXXXXX",
);
const GOOGLE_KEY = j("AI", "za", "SyD-1234567890abcdefghijklmnopqrstu");
const GOOGLE_OAUTH = j("ya", "29.", "a0AfH6SMBxyz0123456789abcdefghij");
const JWT = j(
  "eyJ",
  "hbGciOiJIUzI1NiJ9",
  ".eyJ",
  "zdWIiOiIxMjM0NTY3ODkwIn0",
  ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
);
const PRIVATE_KEY = j(
  "-----BEGIN ",
  "RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq\n-----END ",
  "RSA PRIVATE KEY-----",
);

/** A form: a name, a frame or text carrying a secret, and what must not survive scrubbing. */
interface Form {
  name: string;
  frame?: Record<string, unknown>;
  text?: string;
  leaks: string[];
}

const b64 = (text: string) => btoa(text);

const FORMS: Form[] = [
  // the forms of the issue
  {
    name: "?api_key= in a URL",
    text: "GET https://api.example.com/v1/items?limit=5&api_key=q8Zr2kLmN4pXw7 200",
    leaks: ["q8Zr2kLmN4pXw7"],
  },
  {
    name: "#access_token= in a URL",
    text: "redirect: https://app.example.com/cb#access_token=Tk9p2LmQ8rZx&state=1",
    leaks: ["Tk9p2LmQ8rZx"],
  },
  {
    name: "Authorization: Basic in command output",
    text: `curl -v ...\n> Authorization: Basic ${b64("ada:hunter2")}\n< 200`,
    leaks: [b64("ada:hunter2")],
  },
  {
    name: "a key inside a JSON document held as a JSON string",
    frame: { content: JSON.stringify({ config: { apiKey: "plainSecretValue42" } }) },
    leaks: ["plainSecretValue42"],
  },
  {
    name: "the same, escaped twice",
    frame: { content: JSON.stringify(JSON.stringify({ password: "hunter2hunter2" })) },
    leaks: ["hunter2hunter2"],
  },
  {
    name: '"GITHUB_TOKEN": "ghp_…" as a JSON member',
    frame: { env: { GITHUB_TOKEN: "opaque-value-123" } },
    leaks: ["opaque-value-123"],
  },
  {
    name: '"GITHUB_TOKEN": "…" in JSON text',
    text: `{"GITHUB_TOKEN": "opaque-value-456"}`,
    leaks: ["opaque-value-456"],
  },
  {
    name: "a numeric password",
    frame: { db: { host: "db", password: 918273 } },
    leaks: ["918273"],
  },
  {
    name: "a numeric password in JSON text",
    text: `{"user":"ada","password":918274}`,
    leaks: ["918274"],
  },
  {
    name: "a base64-encoded Anthropic key",
    text: `token=${b64(ANTHROPIC)}`,
    leaks: [b64(ANTHROPIC), "Zq3vX9kLmN2pR7tY"],
  },
  {
    name: "a percent-encoded Anthropic key",
    text: `q=${encodeURIComponent(`{"k":"${ANTHROPIC}"}`)}`,
    leaks: ["Zq3vX9kLmN2pR7tY"],
  },
  {
    name: "a fully percent-encoded key",
    text: `x=${
      [...ANTHROPIC].map((c) => "%" + c.charCodeAt(0).toString(16).padStart(2, "0")).join("")
    }`,
    leaks: ["%5a%71%33"],
  },
  {
    name: "user:password@ in a URL",
    text: "git clone https://ada:s3cretPass@git.example.com/repo.git",
    leaks: ["s3cretPass"],
  },
  // provider formats
  { name: "Anthropic API key", text: `key ${ANTHROPIC} here`, leaks: ["Zq3vX9kLmN2pR7tY"] },
  { name: "Anthropic OAuth token", text: OAUTH, leaks: ["Pq9rS8tU7vW6xY5z"] },
  { name: "OpenAI project key", text: `OPENAI ${OPENAI}`, leaks: ["Ab12Cd34Ef56"] },
  { name: "OpenAI key", text: OPENAI_OLD, leaks: ["T3BlbkFJ"] },
  { name: "GitHub token", text: `pushed with ${GITHUB}`, leaks: ["aB3dE5gH7jK9"] },
  { name: "GitHub OAuth token", text: GITHUB_OAUTH, leaks: ["Zy9Xw8Vu7Ts6"] },
  { name: "GitHub fine-grained token", text: GITHUB_PAT, leaks: ["11ABCDEFG0123456789"] },
  { name: "AWS access key id", text: `aws_access_key_id = ${AWS_ID}`, leaks: [AWS_ID] },
  {
    name: "AWS secret in an assignment",
    text: `AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`,
    leaks: ["wJalrXUtnFEMI"],
  },
  {
    name: "AWS secret as a JSON member",
    frame: { aws_secret_access_key: AWS_SECRET },
    leaks: ["wJalrXUtnFEMI"],
  },
  { name: "Slack bot token", text: SLACK_BOT, leaks: ["AbCdEfGhIjKl"] },
  { name: "Slack user token", text: SLACK_USER, leaks: ["abcdef0123456789"] },
  { name: "Slack webhook", text: `posting to ${SLACK_HOOK}`, leaks: ["XXXXXXXXXXXXXXXXXXXXXXXX"] },
  { name: "Google API key", text: `maps?key=${GOOGLE_KEY}`, leaks: ["SyD-1234567890"] },
  { name: "Google OAuth token", text: GOOGLE_OAUTH, leaks: ["a0AfH6SMBxyz"] },
  { name: "a JSON Web Token", text: `cookie: session=${JWT}`, leaks: ["dozjgNryP4J3"] },
  { name: "a private key", text: PRIVATE_KEY, leaks: ["MIIEowIBAAKCAQEA7bq"] },
  {
    name: "a bearer token",
    text: "Authorization: Bearer abcDEF123456ghi",
    leaks: ["abcDEF123456ghi"],
  },
];

// more providers, and secrets named in config files and command lines
const STRIPE = j("sk", "_live_", "51HabcdefGHIJKLmnopQRST");
const NPM = j("np", "m_", "abcdefghijklmnopqrstuvwxyz0123456789");
const GITLAB = j("gl", "pat-", "aBcDeFgHiJ0123456789");
const HUGGING_FACE = j("h", "f_", "abcdefghijklmnopqrstuvwxyzABCDEFGH");
const SENDGRID = j(
  "S",
  "G.",
  "abcdefghijklmnopqrstuv",
  ".",
  "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
);
FORMS.push(
  { name: "Stripe key", text: `STRIPE: ${STRIPE}`, leaks: ["51HabcdefGHIJ"] },
  {
    name: "npm token",
    text: `npm token: ${NPM} created`,
    leaks: ["abcdefghijklmnopqrstuvwxyz0123"],
  },
  { name: "GitLab token", text: `glab auth ${GITLAB}`, leaks: ["aBcDeFgHiJ0123"] },
  {
    name: "Hugging Face token",
    text: `login ${HUGGING_FACE}`,
    leaks: ["abcdefghijklmnopqrstuvwxyzAB"],
  },
  { name: "SendGrid key", text: SENDGRID, leaks: ["abcdefghijklmnopqrstuvwxyz0123"] },
  {
    name: "an AWS credentials file (ini, lower-case keys, spaces)",
    text: `[default]\naws_access_key_id = ${AWS_ID}\naws_secret_access_key = ${AWS_SECRET}\n`,
    leaks: [AWS_ID, "wJalrXUtnFEMI"],
  },
  {
    name: "a YAML password",
    text: "database:\n  user: app\n  password: correcthorsebattery\n",
    leaks: ["correcthorsebattery"],
  },
  {
    name: "an .npmrc auth token (not in npm's format)",
    text: "//registry.example.com/:_authToken=opaque0123456789value",
    leaks: ["opaque0123456789value"],
  },
  {
    name: "a lower-case .env assignment",
    text: "db_password=Sup3rS3cretValue\nport=5432",
    leaks: ["Sup3rS3cretValue"],
  },
  {
    name: "curl -u user:password",
    text: "$ curl -u ada:Hunt3rPassw0rd https://api.example.com/v1",
    leaks: ["Hunt3rPassw0rd"],
  },
);

const HEADER = { version: 1, cli_version: "2.1.328", sdk_version: "0.3.328" };

function tapeOf(form: Form): Tape {
  const frame = form.frame ?? { type: "user", message: { role: "user", content: form.text } };
  return {
    header: HEADER,
    entries: [
      { t: 0, dir: "cli->sdk", line: 2, frame: { type: "user", ...frame } as { type: string } },
      ...(form.text !== undefined
        ? [{ t: 1, dir: "stderr" as const, line: 3, text: form.text }]
        : []),
    ],
  };
}

const secrets = (tape: Tape) => lintTape(tape).filter((p) => p.code === "secret");

for (const form of FORMS) {
  Deno.test(`secret corpus: ${form.name}`, () => {
    const raw = tapeOf(form);
    assert.ok(secrets(raw).length > 0, "lint sees it");
    const clean = scrubTape(raw, { machine: false });
    const text = JSON.stringify(clean);
    for (const leak of form.leaks) {
      assert.ok(!text.includes(leak), `scrubbed: ${leak} left in ${text}`);
    }
    assert.deepEqual(secrets(clean), [], "lint and scrub agree: nothing left");
    assert.deepEqual(scrubTape(clean, { machine: false }), clean, "scrubbing twice is once");
  });
}

Deno.test("secret corpus: an sk-ant key split across two stream deltas", () => {
  const [a, b] = [ANTHROPIC.slice(0, 12), ANTHROPIC.slice(12)];
  const delta = (line: number, text: string) => ({
    t: line,
    dir: "cli->sdk" as const,
    line,
    frame: {
      type: "stream_event",
      event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
      parent_tool_use_id: null,
    },
  });
  const raw: Tape = {
    header: HEADER,
    entries: [
      {
        t: 0,
        dir: "cli->sdk",
        line: 2,
        frame: { type: "stream_event", event: { type: "message_start" }, parent_tool_use_id: null },
      },
      delta(3, `Your key is ${a}`),
      delta(4, `${b} — keep it safe.`),
    ],
  };
  const found = secrets(raw);
  assert.equal(found.length, 1);
  assert.match(found[0].message, /split across the stream deltas of lines 3–4/);
  const clean = scrubTape(raw, { machine: false });
  const pieces = clean.entries.slice(1).map((
    e,
  ) => ((e as unknown as { frame: { event: { delta: { text: string } } } }).frame.event.delta
    .text)
  );
  assert.equal(pieces.join(""), "Your key is <API_KEY> — keep it safe.");
  assert.ok(!JSON.stringify(clean).includes(b.slice(0, 8)));
  assert.deepEqual(secrets(clean), []);
});

Deno.test("secret corpus: code that names a secret is not one (no false positives in source)", () => {
  const code = [
    "const apiKey = process.env.API_KEY;",
    "password = getPassword()",
    "interface Config { apiKey: string; token?: string }",
    'api_key = os.environ["API_KEY"]',
    "password: ${DB_PASSWORD}",
    'token: "{{ secrets.GH_TOKEN }}"',
    "max_tokens=4096 input_tokens: 120",
  ].join("\n");
  const raw = tapeOf({ name: "code", text: code, leaks: [] });
  assert.deepEqual(secrets(raw), []);
  assert.deepEqual(scrubTape(raw, { machine: false }), raw);
});

Deno.test("secret corpus: what lint cannot see, it says (an image)", () => {
  const tape: Tape = {
    header: HEADER,
    entries: [{
      t: 0,
      dir: "sdk->cli",
      line: 2,
      frame: {
        type: "user",
        message: {
          role: "user",
          content: [{
            type: "image",
            source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
          }],
        },
      },
    }],
  };
  const [problem] = lintTape(tape);
  assert.equal(problem.code, "unseen");
  assert.match(problem.message, /holds an image \(base64\): lint cannot see secrets in it/);
});

// ---- replay of a scrubbed tape ---------------------------------------------------------------

const REAL = fromFileUrl(new URL("./fixtures/real/", import.meta.url));

async function replay(tape: Tape): Promise<{ messages: SDKMessage[]; error?: Error }> {
  const player = new SnapshotPlayer(tape, { mode: "inert" });
  const messages: SDKMessage[] = [];
  const q = query({ prompt: player.prompt(), options: { spawnClaudeCodeProcess: player.spawn } });
  const driving = player.drive(q);
  try {
    for await (const m of q) messages.push(m);
  } catch (error) {
    return { messages, error: error as Error };
  } finally {
    await driving;
  }
  return { messages };
}

Deno.test("a scrubbed recording replays exactly as the scrubbed tape says, and scrubbing it again changes nothing", async () => {
  const text = Deno.readTextFileSync(`${REAL}partial_messages.jsonl`);
  const tape = parseTape(text, { source: "partial_messages.jsonl" });
  // secrets put into what the CLI said: the streamed text (split across deltas) and the message
  let inDelta = 0;
  const leaky: Tape = {
    ...tape,
    entries: tape.entries.map((e) => {
      if (!("frame" in e) || e.dir !== "cli->sdk") return e;
      const f = e.frame as Record<string, unknown>;
      const event = f.event as
        | { type?: string; delta?: { type?: string; text?: string } }
        | undefined;
      if (event?.type === "content_block_delta" && event.delta?.type === "text_delta") {
        inDelta++;
        // the key ends the first delta and starts the second: it exists only when joined
        const text = inDelta === 1
          ? `${event.delta.text} ${ANTHROPIC.slice(0, 10)}`
          : inDelta === 2
          ? `${ANTHROPIC.slice(10)} ${event.delta.text}`
          : event.delta.text;
        return {
          ...e,
          frame: { ...f, event: { ...event, delta: { ...event.delta, text } } } as never,
        };
      }
      if (f.type === "assistant") {
        return { ...e, frame: { ...f, leaked: { GITHUB_TOKEN: GITHUB } } as never };
      }
      return e;
    }),
  };
  assert.ok(inDelta >= 2, "the recording streams text");
  assert.ok(secrets(leaky).length > 0);
  const clean = scrubTape(leaky, { machine: false });
  assert.deepEqual(secrets(clean), []);
  assert.deepEqual(scrubTape(clean, { machine: false }), clean);
  const leaked = JSON.stringify((await replay(leaky)).messages);
  assert.ok(
    leaked.includes("Zq3vX9kLmN2pR7tY") && leaked.includes("aB3dE5gH7jK9"),
    "the app saw them",
  );
  const played = await replay(clean);
  assert.equal(played.error, undefined);
  // the app gets the scrubbed tape's messages, the secrets nowhere
  const said = JSON.stringify(played.messages);
  assert.ok(!said.includes("Zq3vX9kLmN2pR7tY") && !said.includes("aB3dE5gH7jK9"));
  const again = await replay(scrubTape(clean, { machine: false }));
  assert.deepEqual(again.messages, played.messages);
  // what was no secret replays as recorded
  const original = await replay(tape);
  assert.equal(played.messages.length, original.messages.length);
  assert.deepEqual(
    played.messages.map((m) => m.type),
    original.messages.map((m) => m.type),
  );
});
