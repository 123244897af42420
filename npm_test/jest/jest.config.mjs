// jest's config in the project (ES modules: jest runs with NODE_OPTIONS=--experimental-vm-modules):
// the setup file routes the SDK to the mock.
export default {
  testEnvironment: "node",
  transform: {},
  testMatch: ["**/test/**/*.test.mjs"],
  setupFilesAfterEnv: ["@x/claude-mock/jest"],
};
