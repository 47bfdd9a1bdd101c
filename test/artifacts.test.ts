// The committed StableHLO portable artifacts (docs/artifacts.md) are up to date: every corpus program has one for
// its current text, every text a reference run compiles has one (or is listed as one jaxlib refuses), and — with a
// python that imports jax — serializing again gives the same bytes and indexes. Without jax the last part is
// skipped, and says so.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { committedArtifactFiles, corpusTexts, indexJson, planArtifacts, recordedPrograms, type RecordedProgram } from '../src/corpus/artifact-gen.js';
import { artifactsDir, corpusDir, corpusIndexFile, readCorpusIndex, readSuiteIndex, suiteIndexFile, textSha256 } from '../src/corpus/artifacts.js';
import { PROBE_PROGRAM } from '../src/harness/program-forms.js';
import { RECORD_PROGRAMS_ENV } from '../src/pjrt/client.js';
import { findPython, INSTALL_HINT, jaxProblem } from '../src/xla/crosscheck.js';
import { cli, ROOT, tmpDir, WITHOUT_FRAMEWORK_TIER } from './runner-helpers.js';
import { sharedCleanRun } from './clean-runs.js';

const REGENERATE = 'regenerate with `node dist/scripts/gen-artifacts.js --recorded <dir>` (docs/artifacts.md)';
const LIB = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');

/** The python to use, or null after printing why the re-serialization is skipped. An explicit PJRT_CTS_PYTHON must work. */
function python(): string | null {
  const p = findPython();
  if (!p) {
    console.log(`      (skipped: re-serializing the artifacts needs a python with jax; ${INSTALL_HINT})`);
    return null;
  }
  const why = jaxProblem(p.python);
  if (why && p.source === 'PJRT_CTS_PYTHON') throw new Error(`PJRT_CTS_PYTHON: ${why}`);
  if (why) {
    console.log(`      (skipped: re-serializing the artifacts: ${why}; ${INSTALL_HINT})`);
    return null;
  }
  return p.python;
}

describe('committed StableHLO portable artifacts', function () {
  this.timeout(300_000);

  it('every corpus program has an artifact of its current text, and there is no stale one', () => {
    const index = readCorpusIndex();
    assert.ok(index, `no ${corpusIndexFile()}; ${REGENERATE}`);
    const corpus = corpusTexts();
    const stale = [...corpus].filter(([n, text]) => index.programs[n]?.sha256 !== textSha256(text)).map(([n]) => n);
    assert.deepEqual(stale, [], `corpus programs without an artifact of their current text; ${REGENERATE}`);
    assert.deepEqual(Object.keys(index.programs).filter((n) => !corpus.has(n)), [], `index entries of programs no longer in the corpus; ${REGENERATE}`);
    const missing = [...corpus.keys()].filter((n) => !existsSync(path.join(corpusDir(), `${n}.mlirbc`)));
    assert.deepEqual(missing, [], `missing .mlirbc files; ${REGENERATE}`);
  });

  it('the suites\' store lists a file for each entry, and the every-version program is the probe program', () => {
    const index = readSuiteIndex();
    assert.ok(index, `no ${suiteIndexFile()}; ${REGENERATE}`);
    const listed = new Set([
      ...Object.keys(readCorpusIndex()?.programs ?? {}).map((n) => path.join(corpusDir(), `${n}.mlirbc`)),
      ...Object.keys(index.programs).map((s) => path.join(artifactsDir(), `${s}.mlirbc`)),
      ...Object.values(index.versions.files).map((r) => path.join(artifactsDir(), r)),
    ]);
    assert.deepEqual(committedArtifactFiles(), [...listed].sort(), `the .mlirbc files on disk must be exactly the indexed ones; ${REGENERATE}`);
    assert.equal(index.versions.sha256, textSha256(PROBE_PROGRAM), `the every-version artifacts are of another program than the probe's; ${REGENERATE}`);
    assert.ok(Object.keys(index.versions.files).includes(index.minimum) && Object.keys(index.versions.files).includes(index.current), 'the every-version program is written at jaxlib\'s minimum and current versions');
  });

  describe('against what a reference run compiles', function () {
    let recorded: RecordedProgram[] = [];
    before(function () {
      if (!existsSync(LIB)) this.skip();
      // npm test's clean run of the whole catalogue recorded what it compiled (clean-runs.ts); the corpus's own texts
      // among them are the first test's and planArtifacts sets them apart.
      const shared = sharedCleanRun('reference');
      if (shared && existsSync(shared.programs)) {
        recorded = recordedPrograms([shared.programs]);
        assert.ok(recorded.length > 0, 'record mode recorded nothing');
        return;
      }
      // Every case but the corpus's (whose texts the first test covers): each text compiled is recorded.
      const dir = tmpDir();
      const json = path.join(tmpDir(), 'r.json');
      // Tier 4 compiles nothing through the CTS (JAX does, in its own processes): left out.
      const r = cli(['run', '--plugin', 'reference', '--exclude', 'tier1.program.run.*', ...WITHOUT_FRAMEWORK_TIER, '--json', json], { env: { [RECORD_PROGRAMS_ENV]: dir } });
      assert.ok(existsSync(json), r.stderr + r.stdout);
      recorded = recordedPrograms([dir]);
      assert.ok(recorded.length > 0, 'record mode recorded nothing');
    });

    it('every text it compiles has an artifact, or is one jaxlib refuses', () => {
      const index = readSuiteIndex()!;
      const corpus = new Set(corpusTexts().values());
      const uncovered = recorded.map((p) => p.text).filter((t) => !corpus.has(t) && !index.programs[textSha256(t)] && !index.rejected[textSha256(t)]);
      assert.deepEqual(uncovered.map((t) => `${textSha256(t)}: ${t.slice(0, 80)}`), [], `program texts the suites compile without a committed artifact; ${REGENERATE}`);
    });

    it('serializing again (jaxlib) gives the committed bytes and indexes', function () {
      const py = python();
      if (!py) this.skip();
      const plan = planArtifacts(py, recorded);
      const differ = [...plan.files].filter(([f, bytes]) => !existsSync(f) || !Buffer.from(readFileSync(f)).equals(Buffer.from(bytes))).map(([f]) => path.relative(ROOT, f));
      assert.deepEqual(differ, [], `artifacts that differ from a fresh serialization; ${REGENERATE}`);
      assert.deepEqual(committedArtifactFiles().filter((f) => !plan.files.has(f)).map((f) => path.relative(ROOT, f)), [], `stale artifacts; ${REGENERATE}`);
      assert.equal(readFileSync(corpusIndexFile(), 'utf8'), indexJson(plan.corpusIndex), `fixtures/artifacts/corpus.json; ${REGENERATE}`);
      assert.equal(readFileSync(suiteIndexFile(), 'utf8'), indexJson(plan.suiteIndex), `fixtures/artifacts/index.json; ${REGENERATE}`);
      assert.deepEqual(plan.failed, {}, 'every corpus program serializes');
    });
  });
});
