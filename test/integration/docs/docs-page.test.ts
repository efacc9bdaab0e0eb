import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../functions/routes.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const apiRoutes = routes.filter((r) => r.path.startsWith('/api/'));

/** Debian's chromium (or CHROMIUM): the test fails, never skips, without it. */
function chromium(): string {
  for (const candidate of [process.env.CHROMIUM, 'chromium', 'chromium-browser'].filter(Boolean) as string[]) {
    try {
      execFileSync('sh', ['-c', `command -v "${candidate}"`], { stdio: 'pipe' });
      return candidate;
    } catch {
      /* next */
    }
  }
  throw new Error(
    'Chromium is not installed: the docs page test renders /api/docs in a real browser. Install it (apt-get install -y chromium) or set CHROMIUM.',
  );
}

/**
 * The page's DOM once Swagger UI has rendered: headless Chromium, virtual time lets the scripts and fetches settle.
 * From 150 rows (tags and operations) Swagger UI (5.35) virtualizes the list: only the rows in the window are in the
 * DOM. The window is made tall enough for every row (a row is under 100 px), so every operation is rendered.
 */
function renderedDom(url: string): Promise<string> {
  const height = (apiRoutes.length + 100) * 100;
  const profile = mkdtempSync(join(tmpdir(), 'agora-chromium-'));
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-dev-shm-usage',
    `--window-size=1280,${height}`,
    `--user-data-dir=${profile}`,
    '--virtual-time-budget=20000',
    '--dump-dom',
    url,
  ];
  return new Promise<string>((resolve, reject) => {
    execFile(chromium(), args, { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      rmSync(profile, { recursive: true, force: true });
      if (error) reject(new Error(`chromium failed: ${error.message}\n${stderr.slice(-2000)}`));
      else resolve(stdout);
    });
  });
}

describe('API reference', () => {
  it('serves the OpenAPI document with every route', async () => {
    const res = await fetch(`${service.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    for (const r of apiRoutes)
      expect(doc.paths[r.path]?.[r.method.toLowerCase()], `${r.method} ${r.path}`).toBeDefined();
  });

  it('answers HEAD /api/openapi.json as it answers GET, without the body', async () => {
    const get = await fetch(`${service.url}/api/openapi.json`);
    const length = (await get.arrayBuffer()).byteLength;
    const head = await fetch(`${service.url}/api/openapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(head.headers.get('content-length')).toBe(String(length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('serves the page and its Swagger UI files from the package, without a key, and nothing else', async () => {
    const page = await fetch(`${service.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    // No CDN: every script and stylesheet comes from this API.
    expect(
      [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, u]) => u).filter((u) => !u.startsWith('/api/docs/')),
    ).toEqual([]);
    for (const [file, type] of [
      ['swagger-ui.css', 'text/css'],
      ['swagger-ui-bundle.js', 'text/javascript'],
      ['swagger-ui-standalone-preset.js', 'text/javascript'],
    ]) {
      const res = await fetch(`${service.url}/api/docs/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type')).toMatch(new RegExp(`^${type}`));
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    }
    for (const file of ['package.json', 'index.html', '..%2Fpackage.json']) {
      expect((await fetch(`${service.url}/api/docs/${file}`)).status, file).toBe(404);
    }
  });

  it('renders every operation of the route table in headless Chromium', async () => {
    const dom = await renderedDom(`${service.url}/api/docs`);
    const shown = new Set(
      [...dom.matchAll(/<span class="opblock-summary-method">(\w+)<\/span>.*?data-path="([^"]+)"/g)].map(
        ([, method, path]) => `${method} ${path}`,
      ),
    );
    const missing = apiRoutes.map((r) => `${r.method} ${r.path}`).filter((key) => !shown.has(key));
    expect(missing, `operations not on the page (${shown.size} shown)`).toEqual([]);
    expect(dom).not.toMatch(/errors-wrapper|Failed to load API definition/);
  }, 120_000);
});
