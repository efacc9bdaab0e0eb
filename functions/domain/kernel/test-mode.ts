import type { JsonRecord } from './objects.ts';

/**
 * Upstream `set_modetest_titles` (run on every save of a lot, an asset or an auction in test mode): each title
 * language that does not contain its marker gets it as a prefix, so a language never sent becomes the bare marker
 * (`title_en: "[TESTING] "`); a title already marked is left as it is.
 */
const MARKERS = { title: '[ТЕСТУВАННЯ]', title_en: '[TESTING]', title_ru: '[ТЕСТИРОВАНИЕ]' } as const;

export function withTestTitles<T extends { mode?: unknown }>(object: T): T {
  if (object.mode !== 'test') return object;
  const out: JsonRecord = { ...object };
  for (const [field, marker] of Object.entries(MARKERS)) {
    const title = typeof out[field] === 'string' ? out[field] : '';
    if (!title.includes(marker)) out[field] = `${marker} ${title}`;
  }
  // Only titles changed, each still a string: the object keeps its type.
  return out as T;
}
