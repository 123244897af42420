/**
 * What the real CLI (2.1.328, 2.1.332) makes of an MCP tool's `CallToolResult` before the
 * model and the app see it: text stays text; an image becomes an image block, followed by a
 * text naming where the CLI saved it (`[Image: source: <config>/projects/<project>/<session>/
 * tool-results/mcp-<server>-blob-<ms>-<6 characters>.<ext>]`); an embedded resource becomes
 * `[Resource from <server> at <uri>] <text>`; a resource link `[Resource link: <name>] <uri>`
 * (and `tool_use_result` gains `resourceLinks`); `structuredContent` replaces the content by
 * its JSON (`tool_use_result`: `{content, structuredContent}`); no content at all is
 * `(<tool> completed with no output)` for the model.
 *
 * @module
 */

import type { BuildContext } from "../builders/build_context.ts";
import { DEFAULT_HOME, projectSlug } from "../builders/project_paths.ts";
import type { ToolResultContent } from "../builders/user.ts";
import { isObject } from "../wire/frame.ts";

/** A tool's result as the session hands it on: the model's content and the app's view. */
export interface McpToolOutcome {
  /** The `tool_result` content. */
  content: ToolResultContent;
  /** Not an error. */
  isError: false;
  /** The `tool_use_result` of the user frame. */
  toolUseResult: unknown;
}

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/jpg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** The session's result of a successful `tools/call` of `tool` (`mcp__<server>__<name>`). */
export function mcpToolOutcome(
  result: Record<string, unknown>,
  { server, tool, ctx, env }: {
    server: string;
    tool: string;
    ctx: BuildContext;
    env: Record<string, string | undefined>;
  },
): McpToolOutcome {
  const blocks = Array.isArray(result.content) ? result.content : [];
  if (isObject(result.structuredContent)) {
    const text = JSON.stringify(result.structuredContent);
    return {
      content: text,
      isError: false,
      toolUseResult: { content: text, structuredContent: result.structuredContent },
    };
  }
  if (blocks.length === 0) {
    return { content: `(${tool} completed with no output)`, isError: false, toolUseResult: [] };
  }
  const out: Array<Record<string, unknown>> = [];
  const links: Array<Record<string, unknown>> = [];
  for (const block of blocks) {
    if (!isObject(block)) continue;
    if (block.type === "image" && typeof block.data === "string") {
      const mime = typeof block.mimeType === "string" ? block.mimeType : "image/png";
      out.push({ type: "image", source: { type: "base64", media_type: mime, data: block.data } });
      out.push({ type: "text", text: `[Image: source: ${blobPath(server, mime, { ctx, env })}]` });
    } else if (block.type === "resource" && isObject(block.resource)) {
      const { uri, text } = block.resource;
      const body = typeof text === "string" ? text : "";
      out.push({ type: "text", text: `[Resource from ${server} at ${String(uri)}] ${body}` });
    } else if (block.type === "resource_link") {
      const { type: _type, ...link } = block;
      links.push(link);
      out.push({
        type: "text",
        text: `[Resource link: ${String(block.name)}] ${String(block.uri)}`,
      });
    } else {
      out.push(block);
    }
  }
  const content = out as unknown as ToolResultContent;
  return {
    content,
    isError: false,
    toolUseResult: links.length > 0 ? { content, resourceLinks: links } : content,
  };
}

/** Where the real CLI saves an image an MCP tool returned (the mock writes no file). */
function blobPath(
  server: string,
  mime: string,
  { ctx, env }: { ctx: BuildContext; env: Record<string, string | undefined> },
): string {
  const config = env.CLAUDE_CONFIG_DIR || `${DEFAULT_HOME}/.claude`;
  const ext = EXTENSIONS[mime] ?? mime.split("/")[1] ?? "bin";
  const name = `mcp-${server}-blob-${Math.floor(ctx.now())}-${ctx.ids.shortId().slice(0, 6)}`;
  return `${config}/projects/${projectSlug(ctx.cwd)}/${ctx.sessionId}/tool-results/${name}.${ext}`;
}
