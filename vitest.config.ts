import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // every fake a test scripts must be used: checked when each test ends (test/support/fakes.ts)
    setupFiles: ['test/support/verify-fakes.setup.ts'],
  },
});
