/** summaryMarkdown: the verdict for PR comments and CI step summaries, checked as GitHub-flavoured Markdown by a parser. */
import { marked, type Tokens } from 'marked';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryMarkdown } from '../../src/report/markdown.js';
import { cleanupFixtures, experimentFolder, full, small, SMALL_YAML, type Fixture } from './fixtures.js';

let f: Fixture, s: Fixture;
beforeAll(async () => {
  [f, s] = await Promise.all([full(), small()]);
});
afterAll(cleanupFixtures);

/** What comes before the first <details>: what a reviewer sees without clicking. */
const beforeFold = (md: string) => md.slice(0, md.indexOf('<details>'));
/** The GFM tables marked finds, as header cells and row cells (text). */
const tables = (md: string) => marked.lexer(md, { gfm: true }).filter((t): t is Tokens.Table => t.type === 'table')
  .map((t) => ({ header: t.header.map((h) => h.text), rows: t.rows.map((r) => r.map((c) => c.text)) }));

describe('summaryMarkdown', () => {
  it('gives the question, the verdict and one row per variant, with "not recovered" for a storm', () => {
    const md = summaryMarkdown(s.bundle);
    expect(md).toContain('**Question:** Does it come back?');
    // small: a capacity cut from 5m to 7m of a 20m run; no-retries recovers, retries does not.
    expect(md).toMatch(/^\*\*Verdict:\*\* After the fault, no-retries brings the service back in \d+(m\d+s|m|s); retries does not recover within 13m\.$/m);
    const [ranking] = tables(beforeFold(md));
    expect(ranking.header.slice(0, 4)).toEqual(['#', 'variant', 'recovered', 'recovery time']);
    expect(ranking.rows.map((r) => r.slice(0, 4))).toEqual([['1', '**no-retries**', 'yes', expect.stringMatching(/^\d+(m\d+s|m|s)$/)], ['2', '**retries**', 'no', 'not recovered']]);
    expect(md).not.toContain('Partial');
    expect(md).not.toContain('Expectations');
  });

  it('says "up to" N seeds per variant for partial results, where some variants have fewer', () => {
    expect(summaryMarkdown(s.bundle)).toMatch(/simulated per run, \d+ seeds? per variant;/);
    const partial = summaryMarkdown({ ...s.bundle, results: { ...s.bundle.results, partial: true } });
    expect(partial).toMatch(/simulated per run, up to \d+ seeds? per variant \(partial: fewer where runs did not finish\);/);
  });

  it('names the point and the baseline\'s cliff in the verdict, from the ranking and the sweep', () => {
    const md = summaryMarkdown(f.bundle);
    const entries = f.bundle.results.ranking!.points[0].entries;
    expect(entries.map((e) => e.variant)).toEqual(['short-queue', 'no-retries', 'retries']);
    // no-retries fails fast, so its users wait less: a trade-off with short-queue, which the verdict states.
    expect(md).toContain('**Verdict:** At a 2-minute fault, short-queue brings the service back in 0s; no-retries is better on latency p99 (1s against 2s), peak load (1.41x against 3.7x) and attempts per action (1.14 against 1.3); short-queue on recovery time (0s against 9m37s), perceived outage (2m against 11m40s), new users served (99.5% against 0%) and 3 more; retries does not recover within 13m, and it recovers from none of the swept lengths, not even 30s.');
  });

  it('judges recovery while a fault that lasts to the horizon goes on, not "within 0s"', async () => {
    // The capacity cut runs from 15m to the 20m horizon: no run has a moment after it, so
    // recovery is whether the users were restored during it.
    const yaml = SMALL_YAML.replace('at: 5m\n    duration: 2m', 'at: 15m\n    duration: 5m');
    expect(yaml).not.toBe(SMALL_YAML);
    const md = summaryMarkdown((await experimentFolder(yaml)).bundle);
    expect(md).toContain("**Verdict:** After the fault, no variant's users are restored while the fault goes on (to the end of the run, 20m).");
    expect(md).not.toContain('within 0s');
  });

  it('lists failed expectations first, before the fold, with what was measured', () => {
    const md = summaryMarkdown(f.bundle);
    const failed = f.bundle.results.expectations.filter((e) => !e.passed);
    expect(failed.length).toBeGreaterThan(0);
    const top = beforeFold(md);
    expect(top).toContain(`**Expectations: ${failed.length} of ${f.bundle.results.expectations.length} failed**`);
    expect(top).toContain('- ❌ retries at faults[0].duration=5m: recovery time at most 1m — measured: not every seed recovered (0 of 2 did)');
    expect(top.indexOf('❌')).toBeLessThan(top.indexOf('✅'));
  });

  it('puts the compact ranking before the fold and the full comparison inside it, all as GFM tables', () => {
    const md = summaryMarkdown(f.bundle);
    const top = beforeFold(md);
    expect(md.indexOf('<details>')).toBeGreaterThan(0);
    expect(md.trimEnd().endsWith('</details>')).toBe(true);
    expect(top.split('\n').length).toBeLessThanOrEqual(60);
    const [ranking] = tables(top);
    expect(ranking.header).toEqual(['#', 'variant', 'recovered', 'recovery time', 'perceived outage', 'outage saved vs retries', 'peak load', 'wasted work', 'attempts per action', 'decided by']);
    const retries = ranking.rows.find((r) => r[1] === '**retries**')!;
    expect(retries.slice(0, 4)).toEqual(['3', '**retries**', '0 of 2 seeds', 'not recovered']);
    expect(retries[5]).toBe('baseline');
    expect(retries[9]).toBe('recovered');
    expect(top).toContain('Recovers up to (every seed recovered at each faults[0].duration swept up to it): short-queue 5m, no-retries 2m, retries none.');
    // Inside the fold: every variant at every point, as one table whose rows all have the header's cells.
    const all = tables(md);
    const comparison = all.find((t) => t.header[0] === 'variant' && t.header.includes('success'))!;
    expect(comparison.rows).toHaveLength(9);
    for (const t of all) for (const r of t.rows) expect(r).toHaveLength(t.header.length);
    expect(md.indexOf('### Comparison')).toBeGreaterThan(md.indexOf('<details>'));
  });

  it('links report.html relatively, or where the caller says, without breaking the link', () => {
    expect(beforeFold(summaryMarkdown(s.bundle))).toContain('**[Full report with charts](report.html)**');
    const url = 'https://ci.example/artifacts/run 42/report.html';
    const md = summaryMarkdown(s.bundle, { reportLink: url });
    expect(md).toContain('(https://ci.example/artifacts/run%2042/report.html)');
    const links: string[] = [];
    marked.walkTokens(marked.lexer(md), (t) => { if (t.type === 'link') links.push((t as Tokens.Link).href); });
    expect(links).toEqual(['https://ci.example/artifacts/run%2042/report.html']);
  });

  it('writes no link but http(s) ones and the report, and no control character, whatever the scenario\'s text or the link asked for (issue 39)', () => {
    const hostile = '[click me](javascript:alert(1)) ![x](javascript:alert(2)) <javascript:alert(3)> \u001b]8;;https://evil\u0007red\u001b[31m \u202eevil';
    const bundle = { ...s.bundle, results: { ...s.bundle.results, question: hostile, variants: s.bundle.results.variants.map((v, i) => (i === 0 ? { ...v, description: hostile } : v)) } };
    for (const reportLink of [undefined, 'javascript:alert(4)', 'data:text/html,<script>alert(5)</script>', ' JavaScript:alert(6)']) {
      const md = summaryMarkdown(bundle, reportLink === undefined ? {} : { reportLink });
      // Read by a GFM renderer and by a pedantic (markdown.pl) one: the only link is to report.html.
      for (const [name, options] of [['gfm', () => ({ gfm: true })], ['pedantic', () => ({ pedantic: true, gfm: false })]] as const) {
        const links: string[] = [];
        marked.walkTokens(marked.lexer(md, options()), (t) => { if (t.type === 'link' || t.type === 'image') links.push((t as Tokens.Link).href); });
        // GFM links the question's bare https address (an http(s) link is allowed); nothing else.
        expect(links, name).toContain('report.html');
        for (const href of links) expect(href, name).toMatch(/^(https?:\/\/|report\.html$)/);
        expect(marked.parse(md, options()) as string, name).not.toMatch(/href="javascript|src="javascript|href="data:/i);
      }
      expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
      expect(md).toContain('\\u001b[31m'); // shown, not obeyed
    }
  });

  it('shows outcomes per population in the fold, every role but user marked, dead letters counted', () => {
    const md = summaryMarkdown(f.bundle);
    expect(md).toContain('### Per population (at faults[0].duration = 2m)');
    const pops = tables(md).find((t) => t.header[1] === 'population')!;
    expect(pops.rows.some((r) => r[0] === 'retries' && r[1] === 'scraper (attacker)')).toBe(true);
    const worker = pops.rows.find((r) => r[0] === 'retries' && r[1] === 'worker (internal)')!;
    expect(Number(worker[pops.header.indexOf('dead letters')].replace(/,/g, ''))).toBeGreaterThan(0);
  });
});
