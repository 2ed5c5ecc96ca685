// The API reference must build without a warning: every type in a public signature is exported and
// documented. And every exported symbol of every entry (classes, functions, interfaces, type
// aliases, variables) has a TSDoc comment with an `@example`, read from typedoc's JSON output.
// The HTML is read as a user browses it: modules named by their import path, types as users write
// them (no zod), no internal base class or symbol method, and the guides as pages linked together.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'forecasting-sdk-typedoc-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface CommentPart {
  text: string;
}
interface Comment {
  summary?: CommentPart[];
  blockTags?: { tag: string }[];
}
interface Reflection {
  name: string;
  kind: number;
  comment?: Comment;
  signatures?: { comment?: Comment }[];
  children?: Reflection[];
}

/** The modules, named as users import them. */
const ENTRIES = ['forecasting-sdk', 'forecasting-sdk/otel', 'forecasting-sdk/redis', 'forecasting-sdk/testing', 'forecasting-sdk/testing/msw', 'forecasting-sdk/webhooks', 'forecasting-sdk/webhooks/express', 'forecasting-sdk/webhooks/fetch'];

/** typedoc's ReflectionKind values of what an entry exports (a re-export of another entry's symbol is a Reference, 4194304). */
const KINDS: Record<number, string> = { 128: 'class', 64: 'function', 256: 'interface', 2097152: 'type alias', 32: 'variable' };

describe('npm run docs on a fresh clone', () => {
  it('type-checks the sources alone (no example that imports the built package, which a fresh clone has not built)', () => {
    const config = JSON.parse(readFileSync(join(root, 'typedoc.json'), 'utf8')) as { tsconfig: string };
    const tsconfig = JSON.parse(readFileSync(join(root, config.tsconfig), 'utf8')) as { include: string[] };
    expect(tsconfig.include).toEqual(['src']);
    const files = (readdirSync(join(root, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    // An import statement of the package's own name (a TSDoc example's is in a comment: not checked by the compiler).
    const selfImports = files.filter((f) => /^(?:import|export)\b[^\n]*\bfrom ['"]forecasting-sdk/m.test(readFileSync(join(root, 'src', f), 'utf8')));
    expect(selfImports).toEqual([]);
  });
});

describe('the API reference', () => {
  let output = '';
  let project: Reflection;
  beforeAll(() => {
    // One typedoc run: the HTML goes to a temporary folder (not docs/api), the JSON beside it.
    const typedoc = join(root, 'node_modules/typedoc/bin/typedoc');
    output = execFileSync(process.execPath, [typedoc, '--out', join(out, 'html'), '--json', join(out, 'api.json')], { cwd: root, encoding: 'utf8', timeout: 180_000 });
    project = JSON.parse(readFileSync(join(out, 'api.json'), 'utf8')) as Reflection;
  }, 200_000);

  it("opens every entry point's page with an example", () => {
    const modules = (project.children ?? []).filter((c) => ENTRIES.includes(c.name));
    expect(modules.map((m) => m.name).sort()).toEqual([...ENTRIES].sort());
    expect(modules.filter((m) => !m.comment?.blockTags?.some((t) => t.tag === '@example')).map((m) => m.name)).toEqual([]);
  });

  it('files every error class under "Errors", and titles the guides without markdown', () => {
    const main = (project.children ?? []).find((c) => c.name === 'forecasting-sdk') as Reflection & { categories: { title: string; children: number[] }[] };
    const names = new Map((main.children ?? []).map((c) => [(c as Reflection & { id: number }).id, c]));
    const errorClasses = (main.children ?? []).filter((c) => c.kind === 128 && /Error$/.test(c.name)).map((c) => c.name);
    const filedAsErrors = main.categories.find((c) => c.title === 'Errors')!.children.map((id) => names.get(id)!.name);
    expect(errorClasses.filter((name) => !filedAsErrors.includes(name))).toEqual([]);
    expect(errorClasses).toEqual(expect.arrayContaining(['ForecastingError', 'APIError', 'TooManyActiveForecastsError']));
    // A custom coordinator's parts are apart from the client a user calls.
    const client = main.categories.find((c) => c.title === 'Client')!.children.map((id) => names.get(id)!.name);
    const coordination = main.categories.find((c) => c.title === 'Coordination')!.children.map((id) => names.get(id)!.name);
    expect(coordination).toEqual(expect.arrayContaining(['Coordinator', 'SlotHold', 'HoldOptions', 'TaskFinalNotice', 'CoordinatorAttachment', 'WindowEnd']));
    expect(client.filter((name) => coordination.includes(name))).toEqual([]);
    const documents = (project as Reflection & { documents?: { name: string }[] }).documents ?? [];
    expect(documents.map((d) => d.name)).toContain('The forecasting command');
    expect(documents.filter((d) => d.name.includes('`'))).toEqual([]);
  });

  it('files each resource with its params and records under the path users call it on, in the client\'s order, and the errors as their hierarchy', () => {
    type Categorized = Reflection & { categories: { title: string; children: number[] }[] };
    const main = (project.children ?? []).find((c) => c.name === 'forecasting-sdk') as Categorized;
    const byId = new Map((main.children ?? []).map((c) => [(c as Reflection & { id: number }).id, c]));
    const category = (title: string) => main.categories.find((c) => c.title === title)?.children.map((id) => byId.get(id)!.name) ?? [];
    const titles = main.categories.map((c) => c.title);
    expect(titles).not.toContain('Resources');
    const paths = ['client.questions', 'client.tags', 'client.forecasts', 'client.schedules, client.watches', 'client.credits', 'client.webhooks', 'client.decisions', 'client.presets', 'client.questionTemplates', 'client.connections'];
    expect(titles.filter((t) => t.startsWith('client.'))).toEqual(paths);
    expect(category('client.forecasts')).toEqual(expect.arrayContaining(['Forecasts', 'ForecastChat', 'ForecastCreateParams', 'ForecastTask', 'RunManyOptions']));
    expect(category('client.questions')).toEqual(expect.arrayContaining(['Questions', 'QuestionFiles', 'QuestionCreateParams', 'Question', 'ContextFile']));
    expect(category('client.webhooks')).toEqual(expect.arrayContaining(['Webhooks', 'WebhookDeliveries', 'WebhookCreateParams', 'WebhookDelivery']));
    // Errors: each class after the class it extends, the base first.
    const errors = category('Errors');
    expect(errors[0]).toBe('ForecastingError');
    const classes = new Map((main.children ?? []).filter((c) => c.kind === 128).map((c) => [c.name, c as Reflection & { extendedTypes?: { name: string }[] }]));
    const outOfOrder = errors.filter((name, i) => {
      const parent = classes.get(name)?.extendedTypes?.[0]?.name;
      return parent !== undefined && errors.includes(parent) && errors.indexOf(parent) > i;
    });
    expect(outOfOrder).toEqual([]);
    expect(errors.indexOf('TooManyActiveForecastsError')).toBe(errors.indexOf('RateLimitError') + 1);
  });

  it('builds without warnings', () => {
    expect(output).not.toMatch(/warning|error/i);
  });

  it('gives every exported symbol of every entry a TSDoc comment with an @example', () => {
    const text = (c: Comment | undefined) => (c?.summary ?? []).map((p) => p.text).join('').trim();
    const hasExample = (c: Comment | undefined) => (c?.blockTags ?? []).some((t) => t.tag === '@example');
    const entries = project.children ?? [];
    expect(entries.map((e) => e.name).sort()).toEqual(ENTRIES);
    const symbols = entries.flatMap((entry) => (entry.children ?? []).filter((r) => KINDS[r.kind]).map((r) => ({ entry: entry.name, r })));
    expect(symbols.length).toBeGreaterThan(200);
    const gaps = symbols.flatMap(({ entry, r }) => {
      // A function's comment sits on its signature.
      const comment = r.kind === 64 ? r.signatures?.[0]?.comment : r.comment;
      const missing = [!text(comment) && 'a comment', !hasExample(comment) && 'an @example'].filter(Boolean);
      return missing.length > 0 ? [`${entry}: ${KINDS[r.kind]} ${r.name} lacks ${missing.join(' and ')}`] : [];
    });
    expect(gaps).toEqual([]);
  });

  describe('as HTML', () => {
    const html = join(out, 'html');
    const pages = () => readdirSync(html, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));
    const read = (page: string) => readFileSync(join(html, page), 'utf8');
    /** A page's text as a browser shows it (tags and scripts gone, entities decoded). */
    const text = (page: string) =>
      read(page)
        .replace(/<script[\s\S]*?<\/script>/g, '')
        .replace(/<[^>]+>/g, ' ')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&')
        .replace(/\s+/g, ' ');

    it('names the root module forecasting-sdk, in page titles and breadcrumbs, and the others by their import path', () => {
      expect(read('modules/forecasting-sdk.html')).toContain('<title>forecasting-sdk | forecasting-sdk</title>');
      const client = read('classes/forecasting-sdk.ForecastingClient.html');
      expect(client).toContain('<title>ForecastingClient | forecasting-sdk</title>');
      expect(client).toMatch(/class="tsd-breadcrumb"[^>]*>\s*<li><a href="[^"]*forecasting-sdk\.html">forecasting-sdk<\/a>/);
      expect(existsSync(join(html, 'modules/forecasting-sdk_webhooks_express.html'))).toBe(true);
      expect(pages().filter((p) => /(^|\/)index\./.test(p) && p !== 'index.html')).toEqual([]);
    });

    it('shows the fields of the types built from schemas as plain fields with their notes: no zod anywhere, no inherited note, no `= ...`', () => {
      const all = pages().filter((p) => /^(classes|interfaces|types|functions|variables|modules)\//.test(p));
      expect(all.length).toBeGreaterThan(200);
      expect(all.filter((p) => /\bz\.(input|output|infer)\b|\$?Zod(Mini)?[A-Z]\w*</.test(text(p)))).toEqual([]);
      const params = text('interfaces/forecasting-sdk.ShareLinkCreateParams.html');
      expect(params).toContain('label ?: string | null A name to tell links apart');
      expect(params).not.toContain('Inherited from');
      expect(params).not.toContain('= ...');
    });

    it("shows an error's page without JavaScript's own Error statics (an empty Methods heading in a browser), and the package's name once on the index", () => {
      const page = read('classes/forecasting-sdk.NotFoundError.html');
      expect(page).not.toContain('captureStackTrace');
      // Its one method is an API error's own: toJSON (what JSON.stringify writes of it).
      expect(text('classes/forecasting-sdk.NotFoundError.html')).toMatch(/Methods to JSON/);
      expect(read('classes/forecasting-sdk.ValidationError.html')).not.toMatch(/id="methods/);
      expect(read('index.html').match(/<h1[^>]*>forecasting-sdk/g)).toHaveLength(1);
    });

    it('keeps internals out: no [INSPECT] method, no BaseClient or APIResource in a hierarchy or an "inherited from"', () => {
      const classes = pages().filter((p) => p.startsWith('classes/'));
      expect(classes.filter((p) => /\[INSPECT\]|\bBaseClient\b|\bAPIResource\b/.test(text(p)))).toEqual([]);
      expect(text('hierarchy.html')).not.toMatch(/BaseClient|APIResource/);
      // Members in the order of the source (typedoc's sort: kind, then source order), as users read the class.
      expect(text('classes/forecasting-sdk.ForecastingClient.html')).toMatch(/Methods on once off get post put patch delete to JSON/);
    });

    it('renders each guide as a page, with the README\'s and the guides\' links leading to pages and headings that exist', () => {
      const guides = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md') && f !== 'contributing.md');
      const documents = readdirSync(join(html, 'documents'));
      expect(documents.length).toBe(guides.length + 1); // and the CHANGELOG
      expect(text('documents/Getting_started.html')).toContain('Getting started 1. Install');
      // No guide is copied as raw Markdown.
      expect(existsSync(join(html, 'media')) ? readdirSync(join(html, 'media')).filter((f) => f.endsWith('.md')) : []).toEqual([]);
      const broken: string[] = [];
      for (const page of ['index.html', ...documents.map((d) => `documents/${d}`)]) {
        for (const [, href] of read(page).matchAll(/href="([^"]+)"/g)) {
          const [path, fragment] = href!.replace(/&amp;/g, '&').split('#') as [string, string | undefined];
          if (/^[a-z]+:/i.test(path) || path.startsWith('assets/') || path.startsWith('../assets/')) continue;
          const target = path === '' ? page : join(dirname(page), path);
          if (!existsSync(join(html, target))) broken.push(`${page}: ${href} (no page)`);
          else if (fragment && target.endsWith('.html') && !read(target).includes(`id="${fragment}"`)) broken.push(`${page}: ${href} (no heading)`);
        }
      }
      expect(broken).toEqual([]);
      const index = read('index.html');
      expect(index).toContain('href="documents/Getting_started.html"');
      expect(index).not.toMatch(/href="media\/[\w-]+\.md"/);
    });
  });
});
