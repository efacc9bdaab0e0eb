import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { buildLambdas, ROOT } from '../build.ts';

/**
 * The bundled local mode (`npm run start:bundled`, the `bundled` test project): the local gateway serves the Lambdas
 * of lib/build.ts, the very code CDK ships, instead of the TypeScript sources. Beside the bundles there is only what
 * the Lambda runtime provides, the AWS SDK v3 (`node_modules/@aws-sdk`, linked): a bundle that requires another
 * package at run time, or reads a file that was not copied next to it, fails here as it would in AWS.
 */
export async function buildLocalBundles(outdir: string): Promise<string> {
  await buildLambdas({ outdir });
  mkdirSync(join(outdir, 'node_modules'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules', '@aws-sdk'), join(outdir, 'node_modules', '@aws-sdk'), 'dir');
  return outdir;
}
