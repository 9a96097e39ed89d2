import { describe, expect, it } from 'vitest';
import { W, walkMemoryTree } from '../../test/support/walk.js';

const walk = walkMemoryTree;

describe('walkWorkspace under ignore files', () => {
  it('honours .ignore and .rgignore as ripgrep does: same syntax, outside git repositories too, .ignore over .gitignore and .rgignore over both', async () => {
    const tree = {
      '.gitignore': '*.log\n',
      '.ignore': '!keep.log\n*.tmp\nvendor/\n*.dat\n',
      '.rgignore': '!wanted.tmp\n',
      'a.log': '',
      'keep.log': '',
      'x.tmp': '',
      'wanted.tmp': '',
      'vendor/v.js': '',
      'sub/.ignore': 'local.txt\n',
      'sub/local.txt': '',
      'sub/b.log': '',
      'sub/keep.log': '',
      'other/local.txt': '',
      // A file's kind outranks its depth: the root .ignore beats a nested .gitignore, not a nested .ignore.
      'deep/.gitignore': '!x.dat\n',
      'deep/x.dat': '',
      'deep2/.ignore': '!x.dat\n',
      'deep2/x.dat': '',
    };
    const kept = ['.gitignore', '.ignore', '.rgignore', 'deep/.gitignore', 'deep2/.ignore', 'deep2/x.dat', 'keep.log', 'other/local.txt', 'sub/.ignore', 'sub/keep.log', 'wanted.tmp'];
    expect((await walk(tree)).rels).toEqual(kept);
    // Starting below the root, the root's ignore files still apply.
    expect((await walk(tree, { dir: `${W}/sub` })).rels).toEqual(['.ignore', 'keep.log']);
    expect((await walk(tree, { includeIgnored: true })).rels).toHaveLength(Object.keys(tree).length);
  });

  it('skips .git and node_modules and honours nested .gitignore files with git precedence', async () => {
    const tree = {
      '.gitignore': '*.log\nbuild/\n/top-only.txt\n',
      'a.log': '',
      'build/x.js': '',
      'top-only.txt': '',
      'sub/top-only.txt': '',
      'sub/.gitignore': '!keep.log\nsecret/\n',
      'sub/keep.log': '',
      'sub/drop.log': '',
      'sub/secret/s.txt': '',
      'sub/build/y.js': '',
      '.git/HEAD': '',
      'node_modules/m/i.js': '',
      'pkg/node_modules/n.js': '',
    };
    expect((await walk(tree)).rels).toEqual(['.gitignore', 'sub/.gitignore', 'sub/keep.log', 'sub/top-only.txt']);
    expect((await walk(tree, { dir: `${W}/sub` })).rels).toEqual(['.gitignore', 'keep.log', 'top-only.txt']);
    expect((await walk(tree, { includeIgnored: true })).rels).toHaveLength(Object.keys(tree).length);
  });
});
