import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLambdas, lambdaHandlers, ROOT } from '../../lib/build.ts';
import { openApiDocument } from '../../functions/openapi/document.ts';
import { docserviceAccess, routes } from '../../functions/routes.ts';

/**
 * What each Lambda's bundle holds (esbuild's metafile of the one build CDK ships), and that a bundle serves with the
 * route rules the build gave it. The bundled test project proves the whole service works from the bundles; this
 * proves what they leave out.
 */
let dir: string;
let meta: Metafile;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agora-bundles-meta-'));
  meta = (await buildLambdas({ outdir: dir, metafile: true })).metafile!;
  // Beside the bundles only what the Lambda runtime provides, as in the bundled local mode.
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules', '@aws-sdk'), join(dir, 'node_modules', '@aws-sdk'), 'dir');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const httpHandlers = () => lambdaHandlers().filter((h) => routes.some((r) => r.handler === h));
/** The source files in a Lambda's bundle. */
const inputsOf = (handler: string): string[] => {
  const output = Object.entries(meta.outputs).find(([file]) => file.endsWith(`/${handler}/index.mjs`));
  if (!output) throw new Error(`no bundle for ${handler}`);
  return Object.keys(output[1].inputs);
};
const touchesDocuments = (handler: string) => routes.some((r) => r.handler === handler && docserviceAccess(r));

/**
 * Invokes a bundle's handler (or, with `source`, the TypeScript module as is) in a fresh Node process, as a Lambda
 * cold start does: its answer and what it logged.
 */
function invoke(handler: string, routeKey: string, path: string, source = false) {
  const event = {
    version: '2.0',
    routeKey,
    rawPath: path,
    headers: {},
    requestContext: { http: { method: routeKey.split(' ')[0], path }, requestId: 'r1', domainName: 'localhost' },
  };
  const module = source ? join(ROOT, 'functions', `${handler}.ts`) : join(dir, handler, 'index.mjs');
  const script = `const { handler } = await import(${JSON.stringify(pathToFileURL(module).href)});
    const answer = await handler(${JSON.stringify(event)}, { awsRequestId: 'r1', functionName: 'f' });
    console.log('ANSWER ' + JSON.stringify(answer));`;
  const run = spawnSync(
    process.execPath,
    [...(source ? ['--import', 'tsx'] : []), '--input-type=module', '-e', script],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH, AWS_LAMBDA_FUNCTION_NAME: 'f', AWS_REGION: 'eu-central-1', TABLE_NAME: 't' },
      encoding: 'utf8',
    },
  );
  const line = run.stdout.split('\n').find((l) => l.startsWith('ANSWER '));
  if (!line) throw new Error(`the bundle did not answer: ${run.stderr}`);
  return { answer: JSON.parse(line.slice('ANSWER '.length)), log: run.stdout + run.stderr };
}

describe('the Lambda bundles', () => {
  it('carry no route table, not even the OpenAPI one: its document is a file written beside it by the build', () => {
    const withTable = httpHandlers().filter((h) => inputsOf(h).includes('functions/routes.ts'));
    expect(withTable).toEqual([]);
    expect(inputsOf('http/docs/openapi-json').filter((i) => i.startsWith('functions/openapi/'))).toEqual([]);
    const shipped = JSON.parse(readFileSync(join(dir, 'http/docs/openapi-json/openapi.json'), 'utf8'));
    expect(shipped).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });

  it('serves the OpenAPI document from that file', () => {
    const { answer } = invoke('http/docs/openapi-json', 'GET /api/openapi.json', '/api/openapi.json');
    expect(answer.statusCode).toBe(200);
    const body = Buffer.from(answer.body, answer.isBase64Encoded ? 'base64' : 'utf8').toString();
    expect(body).toBe(readFileSync(join(dir, 'http/docs/openapi-json/openapi.json'), 'utf8'));
  });

  it('get the rules of their own routes from the build: every HTTP entry is generated and hands them to the kit', () => {
    for (const handler of httpHandlers()) {
      expect(inputsOf(handler), handler).toContain(`agora-entry:${handler}`);
      expect(inputsOf(handler), handler).toContain('functions/http-kit/route-rules.ts');
    }
  });

  it("carry the document ports (the store's files, docservice keys) only for routes that touch documents", () => {
    const ports = ['functions/runtime/documents.ts', 'functions/store/docservice-keys.ts'];
    for (const handler of lambdaHandlers()) {
      for (const file of ports)
        expect(inputsOf(handler).includes(file), `${handler}: ${file}`).toBe(touchesDocuments(handler));
      if (inputsOf(handler).includes('functions/store/files.ts')) expect(touchesDocuments(handler), handler).toBe(true);
    }
  });

  it('carry no fault injection (the local gateway installs it; it never runs in Lambda)', () => {
    expect(lambdaHandlers().filter((h) => inputsOf(h).includes('functions/store/faults.ts'))).toEqual([]);
  });

  it('answer their own routes with the rules built in', () => {
    const { answer } = invoke('http/not-found', '$default', '/nowhere');
    expect(answer.statusCode).toBe(404);
    expect(JSON.parse(answer.body).errors).toEqual([{ location: 'url', name: 'url', description: 'Not Found' }]);
  });

  it('refuse loudly a route they were not built for (a 500, and the reason in the log), never serving it unchecked', () => {
    const { answer, log } = invoke('http/not-found', 'GET /api/0.1/lots', '/api/0.1/lots');
    expect(answer.statusCode).toBe(500);
    expect(JSON.parse(answer.body).errors[0].description).toBe('Internal server error');
    expect(log).toContain('No route rule for \\"GET /api/0.1/lots\\": this Lambda serves $default');
  });

  it('fail loudly when a handler is loaded without the rules the build or the local gateway hands it', () => {
    const { answer, log } = invoke('http/not-found', '$default', '/nowhere', true);
    expect(answer.statusCode).toBe(500);
    expect(log).toContain('No route rules: this handler was loaded without serveRoutes()');
  });
});
