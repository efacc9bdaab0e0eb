import { resetConfig } from '../../functions/platform/config.ts';

// The test files of a worker share its modules (vitest.config.ts: isolate false, which saves loading and warming the
// same modules again for every file), so each file starts from the environment the worker's first file saw: what a
// file sets (AGORA_ROOM_SOCKET, request limits, a trace header, a table name) never reaches the next one.
const FIRST = Symbol.for('agora.test.firstEnvironment');
const shared = globalThis as unknown as Record<symbol, Record<string, string | undefined>>;
shared[FIRST] ??= { ...process.env };
for (const name of Object.keys(process.env)) if (!(name in shared[FIRST])) delete process.env[name];
Object.assign(process.env, shared[FIRST]);
resetConfig();
