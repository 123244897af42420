import assert from "node:assert/strict";
import { createBuildContext } from "../builders/build_context.ts";
import { mcpToolOutcome } from "./mcp_tool_result.ts";

// as the real claude 2.1.328 and 2.1.332 hand them on (conformance/mcp_*_result.json)
const ctx = createBuildContext({ seed: 1, sessionId: "s-1", cwd: "/home/user/project" });
const at = { server: "calc", tool: "mcp__calc__add", ctx, env: {} };

Deno.test("mcpToolOutcome: text stays; an image is followed by the note of where it was saved", () => {
  const out = mcpToolOutcome({
    content: [{ type: "text", text: "a pixel" }, {
      type: "image",
      data: "AAAA",
      mimeType: "image/png",
    }],
  }, at);
  const blocks = out.content as Array<Record<string, unknown>>;
  assert.deepEqual(blocks.slice(0, 2), [
    { type: "text", text: "a pixel" },
    { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
  ]);
  assert.match(
    String(blocks[2].text),
    /^\[Image: source: \/home\/user\/\.claude\/projects\/-home-user-project\/s-1\/tool-results\/mcp-calc-blob-\d+-[0-9a-z]{6}\.png\]$/,
  );
  assert.deepEqual(out.toolUseResult, out.content);
  const configured = mcpToolOutcome({
    content: [{ type: "image", data: "AAAA", mimeType: "image/jpeg" }],
  }, { ...at, env: { CLAUDE_CONFIG_DIR: "/cfg" } });
  assert.match(
    String((configured.content as Array<{ text?: string }>)[1].text),
    /^\[Image: source: \/cfg\/projects\/.*\.jpg\]$/,
  );
});

Deno.test("mcpToolOutcome: resources and links as text, structuredContent as JSON, no content", () => {
  const link = { uri: "file:///big.bin", name: "big.bin", mimeType: "application/octet-stream" };
  const text = [
    { type: "text", text: "[Resource from calc at file:///notes.txt] note body" },
    { type: "text", text: "[Resource link: big.bin] file:///big.bin" },
  ];
  assert.deepEqual(
    mcpToolOutcome({
      content: [
        { type: "resource", resource: { uri: "file:///notes.txt", text: "note body" } },
        { type: "resource_link", ...link },
      ],
    }, at),
    { content: text, isError: false, toolUseResult: { content: text, resourceLinks: [link] } },
  );
  assert.deepEqual(
    mcpToolOutcome({
      content: [{ type: "text", text: "The sum is 5." }],
      structuredContent: { sum: 5 },
    }, at),
    {
      content: '{"sum":5}',
      isError: false,
      toolUseResult: { content: '{"sum":5}', structuredContent: { sum: 5 } },
    },
  );
  assert.deepEqual(mcpToolOutcome({ content: [] }, at), {
    content: "(mcp__calc__add completed with no output)",
    isError: false,
    toolUseResult: [],
  });
});
