import { putApiKey } from '../functions/store/api-keys.ts';
import type { Role } from '../functions/domain/kernel/principal.ts';

/** The documented development keys: the key equals its name (clients send `broker:` as Basic auth). */
export const DEV_KEYS: readonly { name: string; role: Role; levels: string }[] = [
  { name: 'broker', role: 'broker', levels: '1234' },
  { name: 'broker2', role: 'broker', levels: '1234' },
  { name: 'concierge', role: 'concierge', levels: '' },
  { name: 'convoy', role: 'convoy', levels: '' },
  { name: 'chronograph', role: 'chronograph', levels: '' },
  { name: 'auction', role: 'auction', levels: '' },
  { name: 'admin', role: 'admin', levels: '' },
];

/** Stores the dev keys (hashed) in the table named by TABLE_NAME. Never run against a real deployment. */
export async function seedDevKeys(): Promise<void> {
  for (const k of DEV_KEYS) await putApiKey(k.name, k);
}
