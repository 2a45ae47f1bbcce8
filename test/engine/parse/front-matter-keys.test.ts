/**
 * Front matter as the library reads it: keys Quire does not read are named in the render's
 * warnings (with the key meant, when one is close) and the render goes on; YAML that cannot be
 * read names its line and column in the document.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closestKey, FRONT_MATTER_KEYS, FrontMatterError, render, renderFiles, ResourceError, ResourceLoadError } from '#engine/index.js';
import { pageSizes, pdftotext } from '../../support/pdf-tools.js';

describe('front matter keys', () => {
  it('should warn of a misspelt key with the key meant, and still render', async () => {
    const result = await render('---\ntitle: Report\npapr: letter\n---\n\nThe body.\n');
    assert.deepEqual(result.warnings, ['front matter, line 3: unknown key `papr` is ignored (did you mean `paper`?)']);
    assert.match(await pdftotext(result.pdf), /The body\./);
    // Ignored: the page is still A4.
    assert.equal(Math.round((await pageSizes(result.pdf))[0]!.width), 595);
  });

  it("should name another tool's keys in one warning, with their lines", async () => {
    const result = await render('---\nlayout: post\ntitle: Post\npermalink: /post/\n---\n\nText.\n');
    assert.deepEqual(result.warnings, ['front matter: unknown keys `layout` (line 2), `permalink` (line 4) are ignored']);
  });

  it('should say nothing of the keys it reads', async () => {
    const keys = ['title: T', 'subtitle: S', 'author: [A, B]', 'date: 2026-01-02', 'language: en', 'theme: light', 'toc: false', 'toc_depth: 2', 'paper: a4'];
    const result = await render(`---\n${keys.join('\n')}\n---\n\nText.\n`);
    assert.deepEqual(result.warnings, []);
  });

  it('should name the file of several joined whose front matter holds the key', async () => {
    const result = await renderFiles([
      { markdown: '# One\n', path: 'one.md' },
      { markdown: '---\ntitel: Two\n---\n\n# Two\n', path: 'guide/two.md' },
    ]);
    assert.deepEqual(result.warnings, ['guide/two.md: front matter, line 2: unknown key `titel` is ignored (did you mean `title`?)']);
  });

  it("should warn of the design option's unknown keys too", async () => {
    const result = await render('Text.\n', { design: { paper: 'a5', fontsize: 11 } });
    assert.deepEqual(result.warnings, ['design option: unknown key `fontsize` is ignored (did you mean `font_size`?)']);
  });

  it('should suggest by spelling, case, separators and the names other tools use', () => {
    assert.equal(closestKey('papr'), 'paper');
    assert.equal(closestKey('tittle'), 'title');
    assert.equal(closestKey('Title'), 'title');
    assert.equal(closestKey('toc-depth'), 'toc_depth');
    assert.equal(closestKey('subtitel'), 'subtitle');
    assert.equal(closestKey('number_heading'), 'number_headings');
    assert.equal(closestKey('authors'), 'author');
    assert.equal(closestKey('lang'), 'language');
    assert.equal(closestKey('papersize'), 'paper');
    assert.equal(closestKey('orient'), 'orientation');
    assert.equal(closestKey('layout'), undefined);
    assert.equal(closestKey('permalink'), undefined);
    assert.equal(closestKey('tags'), undefined);
    assert.ok(FRONT_MATTER_KEYS.includes('cover_image') && FRONT_MATTER_KEYS.includes('toc_depth'));
  });
});

describe('front matter errors', () => {
  it('should name the line and column of YAML that cannot be read', async () => {
    await assert.rejects(render('---\ntitle: Fine\nsubtitle: a: b\n---\n\nText.\n'), (error: unknown) => {
      assert.ok(error instanceof FrontMatterError);
      assert.equal(error.line, 3);
      assert.equal(error.column, 11);
      assert.equal(error.message, 'front matter, line 3, column 11: Nested mappings are not allowed in compact mappings');
      return true;
    });
  });

  it("should keep a bad value's message naming its key, and give its line", async () => {
    await assert.rejects(render('---\ntitle: T\ntheme: blue\n---\n\nText.\n'), (error: unknown) => {
      assert.ok(error instanceof FrontMatterError);
      assert.equal(error.message, 'front matter: theme must be light or dark, not "blue"');
      assert.equal(error.line, 3);
      assert.equal(error.key, 'theme');
      return true;
    });
  });
});

describe('strict resources', () => {
  it('should give the failing URL to the caller, and never put it in the message', async () => {
    const loader = { load: () => Promise.reject(new ResourceLoadError('not_found', 'no such file')) };
    await assert.rejects(render('![logo](images/logo-secret.png)\n', { loader }), (error: unknown) => {
      assert.ok(error instanceof ResourceError);
      assert.equal(error.url, 'images/logo-secret.png');
      assert.doesNotMatch(error.message, /logo-secret/);
      return true;
    });
  });
});
