import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, PutObjectTaggingCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { traceClient } from './xray.ts';
import type { FileStore } from './files.ts';

/**
 * The S3 adapter: objects `files/<key>`, private, encrypted by the bucket. Every upload is tagged
 * `agora-attached=no` and the bucket's lifecycle rule expires such objects; a document taking a file re-tags it
 * `agora-attached=yes`. Content-MD5 makes S3 itself refuse bytes that do not match the registered hash.
 */
const UNATTACHED = 'agora-attached=no';
const objectKey = (key: string) => `files/${key}`;
const base64Md5 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

export function s3Store(bucket: string, client = traceClient(new S3Client({}), 'S3')): FileStore {
  return {
    async put(key, bytes, md5) {
      await client.send(new PutObjectCommand({
        Bucket: bucket, Key: objectKey(key), Body: bytes, ContentMD5: base64Md5(md5), Tagging: UNATTACHED, ContentType: 'application/octet-stream',
      }));
    },
    downloadUrl: (key, seconds) => getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }), { expiresIn: seconds }),
    read: async () => undefined,
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return true;
      } catch (error) {
        if ((error as { name?: string }).name === 'NotFound') return false;
        throw error;
      }
    },
    async directUpload(key, md5, seconds) {
      const command = new PutObjectCommand({ Bucket: bucket, Key: objectKey(key), ContentMD5: base64Md5(md5), Tagging: UNATTACHED });
      const url = await getSignedUrl(client, command, { expiresIn: seconds, unhoistableHeaders: new Set(['x-amz-tagging']) });
      return { url, method: 'PUT', headers: { 'content-md5': base64Md5(md5), 'x-amz-tagging': UNATTACHED } };
    },
    async markAttached(keys) {
      await Promise.all(keys.map((key) =>
        client.send(new PutObjectTaggingCommand({ Bucket: bucket, Key: objectKey(key), Tagging: { TagSet: [{ Key: 'agora-attached', Value: 'yes' }] } }))
          .catch((error) => {
            // Attached before its bytes were uploaded (either order is allowed): nothing to tag yet.
            if ((error as { name?: string }).name !== 'NoSuchKey') throw error;
          }),
      ));
    },
  };
}
