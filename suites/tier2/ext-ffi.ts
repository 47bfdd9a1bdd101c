// Tier 2 — the FFI extension (pjrt_c_api_ffi_extension.h) as frameworks call it: jax.ffi.register_ffi_type and
// register_ffi_target go through type_register and register_handler, and PjRtCApiLoadedExecutable::Execute
// forwards a framework's ExecuteContext user data with user_data_add (ForwardExecuteContext,
// xla/pjrt/c_api_client/pjrt_c_api_client.cc). XLA's own plugins implement it in
// xla/pjrt/c/pjrt_c_api_ffi_internal.cc. (Calling a registered handler needs a custom call the CTS's programs do
// not contain, so whether a handler is found at run time is not tested here.)
import { area } from '../../src/harness/index.js';
import { allocateHostMemory, Ffi } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';

const t = area('tier2.ext.ffi', { tier: 2, client: 'none' });
const unique = (what: string): string => `pjrt_cts.${what}.${process.pid}.${Date.now()}`;
// Host memory whose address stands for user data and for a handler the plugin stores but never calls (no program
// names the target); never freed, as a registered handler lives for the process.
let opaqueAddress: bigint | undefined;
const opaque = (): bigint => (opaqueAddress ??= allocateHostMemory(64).address);

t.case('type_register_assigns_ids', {
  source: 'framework',
  cite: 'PJRT_FFI_Type_Register_Args.type_id is "in-out"; XLA\'s PJRT_FFI_Type_Register (pjrt_c_api_ffi_internal.cc): "If type_id is unknown, we are registering a new type and XLA will assign a unique type id to it" — JAX keeps that id for the type\'s user data',
  catches: ['ffi_type_id_not_assigned'],
}).run(({ plugin }) => {
  const ffi = new Ffi(plugin.raw);
  const a = ffi.typeRegister(unique('type_a'));
  const b = ffi.typeRegister(unique('type_b'));
  check.ok(a !== 0n && b !== 0n, 'a type registered with type_id 0 (unknown) must get an id assigned (written back to type_id)', 'non-zero ids', `${a}, ${b}`);
  check.ok(a !== b, 'two types must get different ids (the id is what user data is looked up by)', 'distinct ids', `${a} and ${b}`);
});

t.case('type_reregister_conflicting_id_rejected', {
  source: 'header',
  cite: 'PJRT_FFI_Type_Register: "If `type_id` is set to `0` XLA will assign a unique type id to it … otherwise it will verify that user-provided type id matches previously registered type id for the given type name" — XLA\'s TypeRegistry::RegisterTypeId (xla/ffi/type_registry.cc) fails with "Type name %s already registered with type id %d vs %d"; the same id again is accepted (any error code passes for the conflict)',
  control: 'the name re-registered with its own id',
  catches: ['ffi_type_reregister_accepted'],
}).run(async ({ plugin }) => {
  const ffi = new Ffi(plugin.raw);
  const name = unique('type_conflict');
  const id = ffi.typeRegister(name);
  await check.control('re-register the name with the id it was assigned', () => ffi.typeRegister(name, id));
  await check.rejects(() => ffi.typeRegister(name, id + 1000n), `re-registering FFI type '${name}' (id ${id}) with id ${id + 1000n} must fail: the ids do not match`);
  check.equal(ffi.typeRegister(name, id), id, 'after the rejected conflict the name must still have its first id');
});

t.case('user_data_needs_context', {
  source: 'quality',
  cite: 'the FFI header does not say what a null context does, and frameworks never pass one (ForwardExecuteContext passes the context it created with PJRT_ExecuteContext_Create); XLA\'s PJRT_FFI_UserData_Add refuses it with INVALID_ARGUMENT "PJRT FFI extension requires execute context to be not nullptr", since the data would be lost',
  control: 'user_data_add into a context from PJRT_ExecuteContext_Create succeeds',
  catches: ['ffi_user_data_null_context_accepted'],
  requires: { slots: ['PJRT_ExecuteContext_Create', 'PJRT_ExecuteContext_Destroy'] },
}).run(async ({ plugin }) => {
  const ffi = new Ffi(plugin.raw);
  const typeId = ffi.typeRegister(unique('user_data'));
  const ctx = ffi.createContext();
  try {
    await check.control('user_data_add into a created execute context', () => ffi.userDataAdd(ctx.context, typeId, opaque()));
  } finally {
    ctx.destroy();
  }
  await check.rejects(() => ffi.userDataAdd(null, typeId, opaque()), 'user_data_add with a null context should fail (quality, as XLA does): the data would be lost', ['INVALID_ARGUMENT']);
});

t.case('register_handler_rejects_null', {
  source: 'quality',
  cite: 'the FFI header does not forbid a null handler and frameworks never register one; XLA\'s PJRT_FFI_Register_Handler refuses it ("Validate that handler is not null" → INVALID_ARGUMENT "FFI handler cannot be null"), since a null handler would crash the first custom call that names the target',
  control: 'the extension answers: type_register of a new type succeeds',
  catches: ['ffi_null_handler_accepted', 'crash_in=PJRT_FFI_Register_Handler'],
}).run(async ({ plugin }) => {
  const ffi = new Ffi(plugin.raw);
  // Not a non-null handler as the control: XLA calls a handler at registration (ffi_registry.cc RegisterHandler →
  // GetMetadata invokes it for its API version), so only a real XLA FFI handler can be registered on XLA's plugins.
  await check.control('type_register of a new type through the same extension', () => ffi.typeRegister(unique('control_type')));
  await check.rejects(() => ffi.registerHandler(unique('null_target'), null, 'cpu'), 'register_handler with a null handler should fail (quality, as XLA does)', ['INVALID_ARGUMENT']);
});
