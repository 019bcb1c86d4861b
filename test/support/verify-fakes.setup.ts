// Registered in vitest.config.ts for every test file: the fakes a test made are verified when it ends.
import { afterAll, afterEach, beforeEach } from 'vitest';
import { testStarted, verifyFileFakes, verifyTestFakes } from './fakes.js';

beforeEach(() => testStarted());
afterEach(() => verifyTestFakes());
afterAll(() => verifyFileFakes());
