import { expect } from 'chai';
import fs from 'node:fs';
import { settingNames } from '../server/config.js';

describe('README', () => {
  const readme = fs.readFileSync('README.md', 'utf8');
  const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 5));

  it('documents every setting of server/config.ts in its configuration table', () => {
    const missing = settingNames.filter((name) => !table.includes(`| \`${name}\` |`));
    expect(missing, `settings missing from the README table: ${missing.join(', ')}`).to.deep.equal([]);
  });

  it('names the two set-up commands, and .ci/run calls the test one', () => {
    expect(readme).to.include('./run start').and.include('./run test');
    expect(fs.readFileSync('.ci/run', 'utf8')).to.match(/\.\/run test/);
  });
});
