import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { s3Store } from '../../../functions/store/files/s3-store.ts';

// The S3 adapter loads the SDK and the presigner at first use (never with the module); presigning needs no network.
describe('S3 file store', () => {
  const client = new S3Client({
    region: 'eu-central-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
  });
  const store = s3Store('agora-files', client);
  const md5 = '9e107d9d372bb6826bd81d3542a419d6';

  it('presigns a direct upload that S3 checks against the registered md5 and tags as unattached', async () => {
    const upload = await store.directUpload('k1', md5, 300);
    const url = new URL(upload!.url);
    expect(url.hostname).toContain('agora-files');
    expect(url.pathname).toBe('/files/k1');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toContain('content-md5');
    expect(upload!.headers).toEqual({
      'content-md5': Buffer.from(md5, 'hex').toString('base64'),
      'x-amz-tagging': 'agora-attached=no',
    });
  });

  it('presigns a download of the file for the given seconds', async () => {
    const url = new URL((await store.downloadUrl('k1', 60))!);
    expect(url.pathname).toBe('/files/k1');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('60');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });
});
