// Runs in every API test worker before its test file (vitest.config.ts setupFiles).
import { hashAtLeastCostForTests } from '../src/modules/iam';

hashAtLeastCostForTests();
