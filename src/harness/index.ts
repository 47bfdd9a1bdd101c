// The test-authoring API. Importing it opens no plugin.
export { area, Area, CaseBuilder } from './area.js';
export { params } from './params.js';
export { externalProgramsDir } from './programs.js';
export { PROGRAM_FORMS, PROBE_PROGRAM, artifactOf, artifactVersion, programForms, programFor, versionString, type ProgramForm, type ProgramForms } from './program-forms.js';
export { defineCapability, type Probe, type ProbeHost } from './capabilities.js';
export { SkipSignal, UnsupportedSignal, isUnsupportedError } from './signals.js';
export { SOURCES, type Source } from './types.js';
export type { AreaOptions, CaseContext, CaseFn, CaseOptions, CatalogueEntry, ParamRow, Requirements, RequiresSpec } from './types.js';
export { declareProgram, declaredProgram, type DeclaredOutput, type DeclaredValue, type SuiteProgram } from './suite-programs.js';
export { topologyCreateOptions } from './compile-only.js';
