// Version matching for expectation entries (`pluginVersion`), delegated to npm's `semver`: exact versions and
// ranges (>=1.2.0 <2, ^1.2, ~1.2.3, 1.x, '||'). A pre-release (0.5.0-rc1) satisfies a range only when the range
// names a pre-release of the same version, as npm decides it. Platform versions that are not strict semver
// ("v1.2", "1.2") are read loosely / coerced; an unreadable version matches nothing (undefined).
import semver from 'semver';

/** True when `range` is a syntactically valid semver range (an exact version counts). */
export function validRange(range: string): boolean {
  return semver.validRange(range) !== null;
}

function version(v: string): semver.SemVer | null {
  return semver.parse(v.trim(), { loose: true }) ?? semver.coerce(v, { includePrerelease: true });
}

/** undefined when the version or the range cannot be parsed. */
export function satisfies(v: string, range: string): boolean | undefined {
  const parsed = version(v);
  if (!parsed || !validRange(range)) return undefined;
  return semver.satisfies(parsed, range);
}
