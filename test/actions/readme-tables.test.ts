import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { marked, type Tokens } from 'marked';
import { parse } from 'yaml';

interface ActionYml {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, unknown>;
}

/** The tables of the README section whose heading is `title`, as header → rows of cell texts. */
async function sectionTables(title: string): Promise<Map<string, string[][]>> {
  const readme = await readFile('README.md', 'utf8');
  const start = readme.indexOf(`### ${title}\n`);
  expect(start, title).to.be.greaterThan(0);
  const end = readme.indexOf('\n### ', start + 1);
  const tables = marked.lexer(readme.slice(start, end)).filter((t): t is Tokens.Table => t.type === 'table');
  return new Map(tables.map((t) => [t.header[0].text, t.rows.map((r) => r.map((c) => c.text))]));
}

const name = (cell: string) => /^`([\w-]+)`$/.exec(cell)?.[1] ?? cell;

describe('README: the actions\' inputs and outputs tables', () => {
  for (const [title, dir] of [
    ['Dead links (`actions/deadlinks`)', 'actions/deadlinks'],
    ['Screenshot diff (`actions/screenshot-diff`)', 'actions/screenshot-diff'],
    ['Preview report (`actions/preview-report`)', 'actions/preview-report'],
  ]) {
    it(`${dir}: one row per input and output of action.yml, with its default`, async () => {
      const yml = parse(await readFile(`${dir}/action.yml`, 'utf8')) as ActionYml;
      const tables = await sectionTables(title);
      const inputs = tables.get('input') ?? [];
      expect(inputs.map((r) => name(r[0])).sort()).to.deep.equal(Object.keys(yml.inputs).sort());
      for (const [cell, def] of inputs) {
        const d = yml.inputs[name(cell)].default;
        if (d !== undefined) expect(def, `${cell} default`).to.equal(`\`${d}\``);
      }
      expect((tables.get('output') ?? []).map((r) => name(r[0])).sort()).to.deep.equal(Object.keys(yml.outputs).sort());
    });
  }
});
