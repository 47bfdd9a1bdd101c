// Compile of a given program, on a client (PJRT_Client_Compile) or ahead of time (PJRT_TopologyDescription_Create +
// PJRT_Compile): the case's compiles are replayed with the recorded code, format and compile options, each byte string
// placed as the case placed it (a NUL after it or not, an unreadable page after the code or after its NUL: the C
// program reproduces src/pjrt/program-args.ts's guard pages with mmap and mprotect), and each is judged as the case
// judges it: a positive control, a compile that must succeed, or one that must be rejected (with a code, for `_code`).
import { bytesDecl, bytesOf, cString, field, PLACEMENT_WORDS, placementOf, textComment, type CallLine, type CBody, type Family, type FamilyInput } from './recorded.js';

type Step =
  | { kind: 'ok' }
  | { kind: 'control'; what: string; optional?: true }
  | { kind: 'rejected'; rule: string; code?: 'INVALID_ARGUMENT' };

const TRUNCATED = 'a truncated program given as exactly code_size bytes should be rejected with an error, without reading past them (quality)';

/** The case's compiles, in order, and how each is judged; the last recorded compiles of the slot are the case's. */
function planOf(id: string): { aot: boolean; steps: Step[] } | undefined {
  const aot = id.startsWith('tier1.aot_compile.');
  const p = id.split('.').at(-1)!;
  const rest = id.slice(aot ? 'tier1.aot_compile.'.length : 'tier1.compile.'.length);
  if (rest === 'reads_within_terminated_code' || rest === 'reads_only_code_size.valid') return { aot, steps: aot ? [{ kind: 'ok' }, { kind: 'ok' }] : [{ kind: 'ok' }] };
  if (rest === 'reads_only_code_size.truncated') return { aot, steps: [{ kind: 'rejected', rule: TRUNCATED }] };
  if (!aot && rest.startsWith('rejects_bad_program.')) return { aot, steps: [{ kind: 'control', what: 'compile a valid module' }, { kind: 'rejected', rule: `compiling a malformed program (${p}) must return an error, not succeed or crash` }] };
  if (!aot && rest.startsWith('rejects_bad_program_code.')) {
    return { aot, steps: [{ kind: 'control', what: 'compile a valid module' }, { kind: 'rejected', rule: `a malformed program (${p}) should be reported as INVALID_ARGUMENT (quality)`, code: 'INVALID_ARGUMENT' }] };
  }
  if (aot && rest.startsWith('rejects_bad_program.')) {
    return { aot, steps: [{ kind: 'control', what: 'PJRT_Compile of add_f32 against the same topology', optional: true }, { kind: 'rejected', rule: `PJRT_Compile of a malformed program (${p}) against a topology must return an error, not succeed or crash` }] };
  }
  if (aot && rest.startsWith('suite_program_rejected.')) {
    return { aot, steps: [{ kind: 'control', what: 'PJRT_Compile of the witness suite program against the same topology', optional: true }, { kind: 'rejected', rule: `PJRT_Compile of an invalid program (${p}) against a topology must return an error, not succeed or crash` }] };
  }
  return undefined;
}

/** One compile: the recorded program and options as C data, and the statements that make and judge it. */
function stepCode(k: number, call: CallLine, step: Step, aot: boolean): { decl: string; body: string[]; words: string } | string {
  const program = call.args['program'];
  const code = bytesDecl(`code_${k}`, field(program, 'code'));
  const format = bytesDecl(`format_${k}`, field(program, 'format'));
  const options = bytesDecl(`options_${k}`, call.args['compile_options']) ?? { decl: '', expr: '(Bytes){ NULL, 0, TERMINATED }' };
  if (!code || !format) return `the recorded ${call.slot} has no whole program`;
  const slot = aot ? 'PJRT_Compile' : 'PJRT_Client_Compile';
  const compile = aot ? `aot_compile(topology, &program_${k}, ${options.expr}, why, sizeof why)` : `client_compile(client, &program_${k}, ${options.expr}, why, sizeof why)`;
  const exeType = aot ? 'PJRT_Executable' : 'PJRT_LoadedExecutable';
  const body = [`  PJRT_Program program_${k} = program_of(${code.expr}, ${format.expr});`, `  ${exeType}* exe_${k} = ${compile};`];
  if (step.kind === 'ok') body.push(`  if (exe_${k} == NULL) { printf("%s: fail: PjrtError: ${slot}: %s\\n", case_id, why); fflush(stdout); _exit(3); }`);
  if (step.kind === 'control') {
    body.push(`  if (exe_${k} == NULL) fail(${cString(`positive control failed (${step.what}), so the negative check that follows cannot be judged`)}, "success on valid input", error_as_cts_says(why, "${slot}"));`);
  }
  if (step.kind === 'rejected') {
    body.push(`  if (exe_${k} != NULL) fail(${cString(step.rule)}, "${step.code ? `an error (${step.code})` : 'an error'}", "success (<${aot ? 'Executable' : 'LoadedExecutable'}>)");`);
    if (step.code) body.push(`  if (strncmp(why, "${step.code}:", ${step.code.length + 1}) != 0) fail(${cString(step.rule)}, "error code ${step.code}", code_and_message(why));`);
    body.push('  printf("the plugin rejected it: %s\\n", why);');
  }
  const size = bytesOf(field(program, 'code'))!.length;
  const role = step.kind === 'control' ? 'a valid module (the positive control)' : step.kind === 'ok' ? 'a program that must compile' : 'the program that must be rejected';
  const text = textComment(`code_${k}: ${role}, the program code as the case sent it`, bytesOf(field(program, 'code'))!)
    ?? `/* code_${k}: ${role}, the program code as the case sent it (${size} bytes): not text (an artifact, or bytes no parser reads), so the array alone */`;
  return { decl: [text, code.decl, format.decl, options.decl].filter(Boolean).join('\n'), body, words: `${role}: ${size} bytes ${PLACEMENT_WORDS[placementOf(field(program, 'code'))]}` };
}

function build(input: FamilyInput): CBody | string {
  const plan = planOf(input.id);
  if (!plan) return 'no compile plan for this case';
  const slot = plan.aot ? 'PJRT_Compile' : 'PJRT_Client_Compile';
  const recorded = input.calls.filter((c) => c.slot === slot);
  const required = plan.steps.filter((s) => !(s.kind === 'control' && s.optional)).length;
  if (recorded.length < required) return `the recorded calls hold ${recorded.length} ${slot}, the case makes ${required}`;
  const steps = plan.steps.slice(-Math.min(plan.steps.length, recorded.length));
  const calls = recorded.slice(-steps.length);
  const parts = steps.map((s, k) => stepCode(k, calls[k]!, s, plan.aot));
  const bad = parts.find((p): p is string => typeof p === 'string');
  if (bad) return bad;
  const made = parts as Exclude<(typeof parts)[number], string>[];
  const head: string[] = ['  char why[4096];'];
  const decls = made.map((p) => p.decl);
  if (plan.aot) {
    const topo = input.calls.filter((c) => c.slot === 'PJRT_TopologyDescription_Create').at(-1);
    if (!topo) return 'the recorded calls hold no PJRT_TopologyDescription_Create';
    const name = bytesDecl('topology_name', topo.args['topology_name']) ?? { decl: '', expr: '(Bytes){ (const unsigned char*)"", 0, TERMINATED }' };
    const withOptions = (topo.args['num_options'] ?? 0) !== 0;
    decls.push(name.decl);
    head.push('  ARGS(PJRT_Plugin_Initialize_Args, init);', '  MUST(PJRT_Plugin_Initialize, init);',
      `  PJRT_TopologyDescription* topology = create_topology(${name.expr}, ${withOptions ? 1 : 0});${withOptions ? ' /* with the create options, as the CTS passes them */' : ''}`);
  } else {
    head.push('  PJRT_Client* client = create_client();');
  }
  const topoName = plan.aot ? Buffer.from(bytesOf(input.calls.filter((c) => c.slot === 'PJRT_TopologyDescription_Create').at(-1)!.args['topology_name']) ?? []).toString('utf8') : '';
  return {
    declarations: decls.filter(Boolean).join('\n'),
    body: [...head, ...made.flatMap((p) => p.body)].join('\n'),
    shows: `${plan.aot ? `PJRT_Compile (ahead of time, against the topology "${topoName}")` : 'PJRT_Client_Compile'} of the case's programs exactly as the case sent them: ${made.map((p) => p.words).join('; then ')}`,
    variants: [
      { flag: '--code-placement guard_after_nul', what: 'the program code followed by a NUL and then an unreadable page (all a framework\'s std::string promises)' },
      { flag: '--code-placement guard_after_code', what: 'exactly code_size readable bytes (a plugin that reads past code_size faults at once)' },
    ],
  };
}

export const COMPILE: Family = {
  name: 'compile of a given program',
  covers: [
    'tier1.compile.rejects_bad_program.*', 'tier1.compile.rejects_bad_program_code.*', 'tier1.compile.reads_within_terminated_code', 'tier1.compile.reads_only_code_size.*',
    'tier1.aot_compile.rejects_bad_program.*', 'tier1.aot_compile.suite_program_rejected.*', 'tier1.aot_compile.reads_within_terminated_code', 'tier1.aot_compile.reads_only_code_size.*',
  ],
  build,
};
