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

describe('README dependency table', () => {
  it('says why each dependency of package.json is there', async () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Why each dependency is here'), readme.indexOf('\n## ', readme.indexOf('## Why each dependency is here') + 5));
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const names = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)].filter((n) => !n.startsWith('@types/'));
    const missing = names.filter((n) => !section.includes(`\`${n}\``));
    expect(missing, `not in the README's dependency table: ${missing.join(', ')}`).to.deep.equal([]);
  });
});
