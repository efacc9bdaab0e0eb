import type { JsonObject } from './objects.ts';

/** Upstream `set_modetest_titles`: objects in test mode carry a marker in each title language. */
const PREFIXES = { title: '[ТЕСТУВАННЯ] ', title_en: '[TESTING] ', title_ru: '[ТЕСТИРОВАНИЕ] ' } as const;

export function withTestTitles<T extends JsonObject>(object: T): T {
  if (object.mode !== 'test') return object;
  const out: JsonObject = { ...object };
  for (const [field, prefix] of Object.entries(PREFIXES)) {
    if (typeof out[field] === 'string' && !out[field].startsWith(prefix)) out[field] = prefix + out[field];
  }
  return out as T;
}
