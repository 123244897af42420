import assert from "node:assert/strict";
import { apiErrorMessage, apiFailureMessage } from "./api_error_message.ts";
import { createBuildContext } from "./build_context.ts";

Deno.test("apiErrorMessage maps statuses to error categories and texts", () => {
  const ctx = createBuildContext();
  const overloaded = apiErrorMessage(ctx, 529);
  assert.equal(overloaded.error, "overloaded");
  assert.equal(overloaded.api_error_type, "overloaded_error");
  assert.equal(overloaded.message.content[0].text, "API Error: 529 Overloaded");
  assert.equal(apiErrorMessage(ctx, 400).error, "unknown");
  assert.equal(apiErrorMessage(ctx, 418).api_error_type, "invalid_request_error");
  assert.throws(() => apiErrorMessage(ctx, 42), /status must be an HTTP status code, got 42/);
});

Deno.test("apiFailureMessage writes the key set of each failure kind, as recorded", () => {
  const ctx = createBuildContext({ seed: 3 });
  const http = apiFailureMessage(ctx, {
    text: "Invalid API key · Fix external API key",
    error: "authentication_failed",
    status: 401,
  });
  assert.deepEqual(Object.keys(http).slice(6), [
    "error",
    "request_id",
    "is_api_error_message",
    "api_error_status",
    "api_error_type",
  ]);
  assert.equal(http.api_error_type, "authentication_error");
  const refused = apiFailureMessage(ctx, {
    text: "x",
    error: "server_error",
    apiError: "connection_failed",
  });
  assert.deepEqual(Object.keys(refused).slice(6), ["error", "is_api_error_message", "api_error"]);
  const timeout = apiFailureMessage(ctx, { text: "Request timed out.", error: "server_error" });
  assert.deepEqual(Object.keys(timeout).slice(6), ["error", "is_api_error_message"]);
  assert.throws(
    () => apiFailureMessage(ctx, { text: "x", error: "unknown", status: 99 }),
    /status must be an HTTP status code or null, got 99/,
  );
  assert.throws(
    () =>
      apiFailureMessage(ctx, {
        text: "x",
        error: "unknown",
        status: 500,
        apiError: "connection_failed",
      }),
    /apiError is for failures without a status/,
  );
  assert.throws(() => apiFailureMessage(ctx, { text: 5 as never, error: "unknown" }), TypeError);
});
