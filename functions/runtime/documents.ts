import type { Keyring } from '#domain/documents/docservice.ts';
import { loadKeyring } from '#store/docservice-keys.ts';
import { fileStore } from '#store/files/configured-store.ts';
import { config } from './config.ts';

/**
 * The document ports of a request that touches documents, bound here so the request stack (http-kit) never imports the
 * store: the docservice keyring, the docservice base URL, and marking the files saved documents took.
 */
export interface DocumentPorts {
  keyring: Keyring;
  /** The docservice base URL: configured, else this request's public base. */
  docservice(baseUrl: string): string;
  markAttached(files: string[]): Promise<void>;
}

export async function documentPorts(): Promise<DocumentPorts> {
  return {
    keyring: await loadKeyring(),
    docservice: (baseUrl) => config().docserviceUrl ?? `${baseUrl}/api/docservice`,
    markAttached: (files) => fileStore().markAttached(files),
  };
}
