import fs from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const startsProcesses = /from ["']node:child_process["']/;

/**
 * Vitest's order, except when it has no past duration for some file (a fresh clone, as in CI):
 * then it runs larger files first, which puts the files that start processes of their own (the
 * CLI, servers: small files, but the longest ones) last, where the other workers run out of files
 * and wait for them. Those go first instead, in vitest's order among themselves.
 */
export default class ProcessesFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const known = (file: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${file.project.name}:${path.relative(root, file.moduleId)}`);
    if (sorted.every(known)) return sorted;
    const first = sorted.filter((file) => startsProcesses.test(fs.readFileSync(file.moduleId, "utf8")));
    return [...first, ...sorted.filter((file) => !first.includes(file))];
  }
}
