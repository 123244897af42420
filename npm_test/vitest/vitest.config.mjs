// vitest's config in the project: the setup file routes the SDK to the mock.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { setupFiles: ["@x/claude-mock/vitest"] },
});
