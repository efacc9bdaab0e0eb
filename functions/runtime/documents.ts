import { auctionType } from '#domain/auctions/catalog.ts';
import type { DocumentContext, Keyring } from '#domain/documents/docservice.ts';
import type { Micros } from '#domain/kernel/time.ts';
import { loadKeyring } from '#store/docservice-keys.ts';
import { fileStore } from '#store/files/configured-store.ts';
import { config } from '#platform/config.ts';

/** Where and when documents are written or read: the public base URL links start with, the instant, the collection. */
export interface DocumentsAt {
  baseUrl: string;
  now: Micros;
  /** The path of the documents collection addressed (`/api/2.5/auctions/<id>/documents`), if any. */
  collection?: string;
}

/**
 * The document ports of a request that touches documents, bound here so the request stack (http-kit) never imports the
 * store: the document context (the docservice keyring and base URL) and marking the files saved documents took.
 */
export interface DocumentPorts {
  /** The document context at `at`; its `attached` collects the files the documents written in it took. */
  context(at: DocumentsAt): DocumentContext;
  markAttached(files: string[]): Promise<void>;
}

export async function documentPorts(): Promise<DocumentPorts> {
  const keyring: Keyring = await loadKeyring();
  return {
    context: ({ baseUrl, now, collection }) => ({
      keyring,
      docservice: config().docserviceUrl ?? `${baseUrl}/api/docservice`, // configured, else this request's public base
      collection,
      baseUrl,
      nowSeconds: Math.floor(now / 1_000_000),
      attached: [],
    }),
    markAttached: (files) => fileStore().markAttached(files),
  };
}

/**
 * The document context of a document the service itself adds to an auction (the room's audit): the auction's
 * documents collection, links from the configured public URL; `markAttached` keeps the files it stored.
 */
export async function auctionDocuments(
  type: string,
  auctionId: string,
  now: Micros,
): Promise<{ files: DocumentContext; markAttached: DocumentPorts['markAttached'] }> {
  const ports = await documentPorts();
  const files = ports.context({
    baseUrl: config().publicUrl ?? '',
    now,
    collection: `${auctionType(type).apiBase}/${auctionId}/documents`,
  });
  return { files, markAttached: ports.markAttached };
}
