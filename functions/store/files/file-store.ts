/**
 * The blob store of the document service: files by key. Two adapters, which configured-store.ts picks from: S3 in
 * AWS (`FILES_BUCKET` set, s3-store.ts), a folder locally (`AGORA_FILES_DIR`, default the git-ignored `.agora/files`,
 * folder-store.ts).
 */
export interface FileStore {
  /** Stores the bytes of a file; `md5` (hex) is checked again by the store where it can (S3 Content-MD5). */
  put(key: string, bytes: Uint8Array, md5: string): Promise<void>;
  /** Where to send a client for the bytes: a presigned GET (S3), or undefined when the service answers them itself. */
  downloadUrl(key: string, seconds: number): Promise<string | undefined>;
  /** The bytes, when the service answers them itself (local); undefined for an unknown key. */
  read(key: string): Promise<Uint8Array | undefined>;
  exists(key: string): Promise<boolean>;
  /** A direct upload the client may use instead of the API route (S3 presigned PUT), when the store has one. */
  directUpload(
    key: string,
    md5: string,
    seconds: number,
  ): Promise<{ url: string; method: 'PUT'; headers: Record<string, string> } | undefined>;
  /** Keeps files that documents took: the bucket expires files nobody attached. */
  markAttached(keys: string[]): Promise<void>;
}
