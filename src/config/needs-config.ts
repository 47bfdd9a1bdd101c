// A case that cannot run because the plugins.json entry lacks a field ends `skip` with "needs <field>: …" — the CTS was
// not configured to run it, which is no finding about the plugin. The summary groups these by field, so a vendor sees
// what their entry could enable.

/** The skip message; `entry` undefined: the plugin was given by path, so there is no entry to add the field to. */
export function needsConfigMessage(field: string, entry: string | undefined, why: string): string {
  const where = entry === undefined
    ? `a plugin given by path has no entry: use a plugins.json entry with ${field}`
    : `the ${entry} entry in plugins.json names no ${field}`;
  return `needs ${field}: ${where} (${why})`;
}

/** The field a skip message names, when it is a needsConfigMessage. */
export function configNeedOf(message: string | undefined): string | undefined {
  return /^needs (\w+): (?:a plugin given by path|the \S+ entry in plugins\.json)/.exec(message ?? '')?.[1];
}
