// A case that lacks a plugins.json field ends `skip` naming the field; a plugin given by path is told to use an entry.
import assert from 'node:assert/strict';
import { configNeedOf, needsConfigMessage } from '../src/config/needs-config.js';

describe('needsConfig messages', () => {
  it('name the field and the entry, and say so when there is no entry (a plugin given by path)', () => {
    const byEntry = needsConfigMessage('completionDelayOption', 'cuda', 'to observe not-yet-ready events');
    assert.equal(byEntry, 'needs completionDelayOption: the cuda entry in plugins.json names no completionDelayOption (to observe not-yet-ready events)');
    const byPath = needsConfigMessage('nodeIdOption', undefined, 'multi-node');
    assert.match(byPath, /^needs nodeIdOption: a plugin given by path has no entry: use a plugins.json entry with nodeIdOption/);
    assert.doesNotMatch(byPath, /names no/);
  });

  it('are recognised for the summary, other skips are not', () => {
    assert.equal(configNeedOf(needsConfigMessage('kvPrefixOption', 'reference-xla', 'x')), 'kvPrefixOption');
    assert.equal(configNeedOf(needsConfigMessage('nodeIdOption', undefined, 'x')), 'nodeIdOption');
    assert.equal(configNeedOf('needs two addressable devices'), undefined);
    assert.equal(configNeedOf(undefined), undefined);
  });
});
