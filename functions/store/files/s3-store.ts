import type { S3Client } from '@aws-sdk/client-s3';
import { observeClient } from '../aws-calls.ts';
import { traceClient } from '../xray.ts';
import type { FileStore } from './file-store.ts';

/**
 * The S3 adapter: objects `files/<key>`, private, encrypted by the bucket. Every upload is tagged
 * `agora-attached=no` and the bucket's lifecycle rule expires such objects; a document taking a file re-tags it
 * `agora-attached=yes`. Content-MD5 makes S3 itself refuse bytes that do not match the registered hash.
 */
const UNATTACHED = 'agora-attached=no';
const objectKey = (key: string) => `files/${key}`;
const base64Md5 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

/**
 * The SDK is imported at the first call, not with the module: the bundler hoists a static import of an external
 * package to the top of every bundle that merely references this file (lazily or not), and the S3 client and the
 * presigner cost about 60 ms of cold start to the routes that never touch a file.
 */
let sdkModule: Promise<typeof import('@aws-sdk/client-s3')> | undefined;
const s3Sdk = () => (sdkModule ??= import('@aws-sdk/client-s3'));
const getSignedUrl: typeof import('@aws-sdk/s3-request-presigner').getSignedUrl = async (...args) =>
  (await import('@aws-sdk/s3-request-presigner')).getSignedUrl(...args);

export function s3Store(bucket: string, given?: S3Client): FileStore {
  let made: Promise<S3Client> | undefined;
  const s3Client = () =>
    (made ??= given
      ? Promise.resolve(observeClient(given, 'S3'))
      : s3Sdk().then(({ S3Client }) => traceClient(observeClient(new S3Client({}), 'S3'), 'S3')));
  const s3 = async () => ({ sdk: await s3Sdk(), client: await s3Client() });
  return {
    async put(key, bytes, md5) {
      const { sdk, client } = await s3();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: bucket,
          Key: objectKey(key),
          Body: bytes,
          ContentMD5: base64Md5(md5),
          Tagging: UNATTACHED,
          ContentType: 'application/octet-stream',
        }),
      );
    },
    downloadUrl: async (key, seconds) =>
      getSignedUrl(await s3Client(), new (await s3Sdk()).GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }), {
        expiresIn: seconds,
      }),
    read: async () => undefined,
    async exists(key) {
      try {
        const { sdk, client } = await s3();
        await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return true;
      } catch (error) {
        if ((error as { name?: string }).name === 'NotFound') return false;
        throw error;
      }
    },
    async directUpload(key, md5, seconds) {
      const command = new (await s3Sdk()).PutObjectCommand({
        Bucket: bucket,
        Key: objectKey(key),
        ContentMD5: base64Md5(md5),
        Tagging: UNATTACHED,
      });
      const url = await getSignedUrl(await s3Client(), command, {
        expiresIn: seconds,
        unhoistableHeaders: new Set(['x-amz-tagging']),
      });
      return { url, method: 'PUT', headers: { 'content-md5': base64Md5(md5), 'x-amz-tagging': UNATTACHED } };
    },
    async markAttached(keys) {
      const { sdk, client } = await s3();
      await Promise.all(
        keys.map((key) =>
          client
            .send(
              new sdk.PutObjectTaggingCommand({
                Bucket: bucket,
                Key: objectKey(key),
                Tagging: { TagSet: [{ Key: 'agora-attached', Value: 'yes' }] },
              }),
            )
            .catch((error) => {
              // Attached before its bytes were uploaded (either order is allowed): nothing to tag yet.
              if ((error as { name?: string }).name !== 'NoSuchKey') throw error;
            }),
        ),
      );
    },
  };
}
