import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './build-server.mjs';

interface Manifest {
  workspaces?: string[];
  bin?: string | Record<string, string>;
  scripts?: Record<string, string>;
}

const read = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as Manifest;
const rootManifest = read('package.json');
const manifests = ['package.json', ...(rootManifest.workspaces ?? []).map((w) => join(w, 'package.json'))];

/** The mode the checked-out commit gives a path (100644, 100755), or null when it has no such file. */
function trackedMode(path: string): string | null {
  const line = execFileSync('git', ['ls-tree', 'HEAD', '--', path], { cwd: root, encoding: 'utf8' }).trim();
  return line ? (line.split(/\s+/)[0] ?? null) : null;
}

describe('npm install leaves the tree as git has it', () => {
  it('runs no install step of ours that could write into the tree', () => {
    for (const file of manifests) {
      const scripts = Object.keys(read(file).scripts ?? {});
      expect(scripts.filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name)), file).toEqual([]);
    }
  });

  // npm links each `bin` and makes its target executable: a target tracked without the executable bit shows as changed
  it('tracks every bin target of the workspaces as executable', () => {
    const targets = manifests.flatMap((file) => {
      const { bin } = read(file);
      const paths = typeof bin === 'string' ? [bin] : Object.values(bin ?? {});
      return paths.map((target) => normalize(join(dirname(file), target)));
    });
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expect(`${target} ${trackedMode(target)}`).toBe(`${target} 100755`);
  });

  it('ignores what an install and a start create: dependencies, builds, data, reports', () => {
    const ignored = (path: string) => {
      try {
        execFileSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: root });
        return true;
      } catch {
        return false;
      }
    };
    for (const path of ['node_modules/x', 'apps/web/node_modules/x', 'apps/web/dist/index.html', 'apps/server/dist/main.js', 'data/isps.db', '.tmp/x', 'e2e/screenshots/x.png']) expect(`${path} ${ignored(path)}`).toBe(`${path} true`);
  });
});
