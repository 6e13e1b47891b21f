// Run before each test file (vitest.config.ts `setupFiles`): what every file ends with.
import { afterAll } from 'vitest';
import { closeListeningServers } from './listening.js';

afterAll(closeListeningServers);
