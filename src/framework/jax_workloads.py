#!/usr/bin/env python3
"""The framework tier's JAX workloads (suites/tier4/jax.ts), run on the plugin under test and on JAX's CPU backend.

Usage: jax_workloads.py '{"workload": NAME, "platform": P, "devices": N, "x64": bool, "topology": T}'
The plugin is loaded as JAX loads plugins (PJRT_NAMES_AND_LIBRARY_PATHS, JAX_PLATFORMS="P,cpu": the caller's
environment, src/framework/run-workload.ts). The workload runs on P's devices and again on as many CPU devices; the
last line of stdout is one JSON object:
  {"status": "pass"}
  {"status": "fail", "message": str}              values differ from JAX's CPU backend
  {"status": "error", "phase": "plugin"|"cpu"|"setup", "type": str, "message": str}   an exception
  {"status": "unsupported", "message": str}       fewer devices, memory kinds or types than the workload needs
The ahead-of-time workloads (aot_*) run no program: they lower for the topology the plugin creates from T
(jax.experimental.topologies, JAX_PLATFORMS="cpu" so no device client is made), compile through the plugin and
compare the executable's output shardings with the requested ones ("fail" when they differ).
Exit 0 whenever that line was written. This file only runs JAX; what a verdict means is decided in TypeScript.
"""
import json
import os
import subprocess
import sys
import tempfile
import warnings

ARGS = json.loads(sys.argv[1])
NEED = int(ARGS.get("devices", 1))

import jax  # noqa: E402

jax.config.update("jax_num_cpu_devices", max(NEED, 1))
if ARGS.get("x64"):
    jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402


class Unsupported(Exception):
    pass


def on(devs, x):
    return jax.device_put(x, devs[0])


def w_random(devs):
    key = on(devs, jax.random.key(7))
    k1, k2 = jax.random.split(key)
    return {"normal": jax.random.normal(k1, (64,)), "uniform": jax.random.uniform(k2, (8, 8)),
            "bits": jax.random.bits(key, (16,), dtype=jnp.uint32)}


def w_jit_grad_vmap(devs):
    w = on(devs, jnp.linspace(-1.0, 1.0, 12).reshape(3, 4))
    xs = on(devs, jnp.arange(20.0).reshape(5, 4) / 10)

    def loss(w, x):
        return jnp.sum(jnp.tanh(w @ x) ** 2)
    g = jax.jit(jax.grad(loss))(w, xs[0])
    per_example = jax.jit(jax.vmap(loss, in_axes=(None, 0)))(w, xs)
    return {"grad": g, "vmap": per_example}


def w_control_flow(devs):
    x = on(devs, jnp.arange(1.0, 9.0))
    cumsum = jax.jit(lambda v: jax.lax.scan(lambda c, e: (c + e, c + e), 0.0, v)[1])(x)
    loop = jax.jit(lambda v: jax.lax.while_loop(lambda s: s[0] < 5, lambda s: (s[0] + 1, s[1] * 1.5), (0, v))[1])(x)
    branch = jax.jit(lambda v: jax.lax.cond(v.sum() > 10, jnp.sin, jnp.cos, v))(x)
    fori = jax.jit(lambda v: jax.lax.fori_loop(0, 3, lambda i, a: a + i * v, v))(x)
    return {"scan": cumsum, "while": loop, "cond": branch, "fori": fori}


def w_x64(devs):
    x = on(devs, jnp.arange(1, 9, dtype=jnp.float64) / 3)
    i = on(devs, jnp.arange(1, 9, dtype=jnp.int64) * (2 ** 40))
    return {"f64": jax.jit(lambda v: jnp.exp(v) * v + 1 / v)(x), "s64": jax.jit(lambda v: v * 3 + (v >> 7))(i)}


def w_complex(devs):
    a = on(devs, (jnp.arange(9.0) + 1j * jnp.arange(9.0)[::-1]).astype(jnp.complex64).reshape(3, 3))
    return {"mul_conj": jax.jit(lambda m: m * m.conj().T + (2 - 3j))(a), "abs": jax.jit(jnp.abs)(a),
            "exp": jax.jit(jnp.exp)(a / 4), "sum": jax.jit(lambda m: m.sum(axis=0))(a)}


def w_bf16_f8(devs):
    a = on(devs, (jnp.arange(16.0).reshape(4, 4) / 7).astype(jnp.bfloat16))
    f = on(devs, jnp.linspace(-3, 3, 16, dtype=jnp.float32))
    return {"bf16_matmul": jax.jit(lambda m: (m @ m).astype(jnp.float32))(a),
            "f8_roundtrip": jax.jit(lambda v: v.astype(jnp.float8_e4m3fn).astype(jnp.float32))(f)}


def w_sort_linalg_fft_conv(devs):
    v = on(devs, jnp.array([3.0, -1.0, 7.5, 0.25, 2.0, -4.0, 9.0, 1.5]))
    m = on(devs, jnp.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]]))
    img = on(devs, jnp.arange(2 * 1 * 6 * 6, dtype=jnp.float32).reshape(2, 1, 6, 6) / 10)
    ker = on(devs, jnp.arange(1 * 1 * 3 * 3, dtype=jnp.float32).reshape(1, 1, 3, 3) / 5)
    return {"sort": jax.jit(jnp.sort)(v), "argsort": jax.jit(jnp.argsort)(v), "inv": jax.jit(jnp.linalg.inv)(m),
            "cholesky": jax.jit(jnp.linalg.cholesky)(m), "solve": jax.jit(jnp.linalg.solve)(m, v[:3]),
            "fft": jax.jit(jnp.fft.fft)(v), "ifft": jax.jit(jnp.fft.ifft)(v.astype(jnp.complex64)),
            "conv": jax.jit(lambda x, k: jax.lax.conv(x, k, (1, 1), "SAME"))(img, ker)}


def mesh_of(devs, n):
    if len(devs) < n:
        raise Unsupported("needs %d devices, the backend has %d" % (n, len(devs)))
    return Mesh(np.array(devs[:n]), ("x",))


def w_named_sharding(devs):
    mesh = mesh_of(devs, NEED)
    x = jax.device_put(jnp.arange(8.0 * NEED).reshape(2 * NEED, 4), NamedSharding(mesh, P("x", None)))
    y = jax.jit(lambda a: jnp.tanh(a) * 2 + a.sum(axis=0))(x)
    z = jax.jit(lambda a: a.T @ a, out_shardings=NamedSharding(mesh, P()))(x)
    return {"elementwise": y, "reduction": z}


def w_shard_map_collectives(devs):
    mesh = mesh_of(devs, NEED)
    x = jax.device_put(jnp.arange(4.0 * NEED), NamedSharding(mesh, P("x")))
    psum = jax.jit(jax.shard_map(lambda a: jax.lax.psum(a, "x"), mesh=mesh, in_specs=P("x"), out_specs=P()))(x)
    gather = jax.jit(jax.shard_map(lambda a: jax.lax.all_gather(a, "x", tiled=True), mesh=mesh, in_specs=P("x"),
                                   out_specs=P(), check_vma=False))(x)
    perm = [(i, (i + 1) % NEED) for i in range(NEED)]
    shift = jax.jit(jax.shard_map(lambda a: jax.lax.ppermute(a, "x", perm), mesh=mesh, in_specs=P("x"), out_specs=P("x")))(x)
    return {"psum": psum, "all_gather": gather, "ppermute": shift}


def w_device_put(devs):
    if len(devs) < 2:
        raise Unsupported("needs 2 devices, the backend has %d" % len(devs))
    a = jax.device_put(jnp.arange(12.0).reshape(3, 4), devs[0])
    b = jax.device_put(a, devs[1])
    b.block_until_ready()
    if b.devices() != {devs[1]}:
        raise AssertionError("device_put to device 1 left the array on %s" % b.devices())
    c = jax.jit(lambda v: v * 2)(b)  # async dispatch, then a wait
    c.block_until_ready()
    kinds = {m.kind for m in devs[0].addressable_memories()}
    out = {"copied": b, "computed": c}
    if "pinned_host" in kinds:
        host = jax.sharding.SingleDeviceSharding(devs[0], memory_kind="pinned_host")
        h = jax.device_put(a, host)
        out["pinned_host"] = jax.device_put(h, jax.sharding.SingleDeviceSharding(devs[0], memory_kind="device"))
    return out


def w_donation(devs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # as JAX's own pytest configuration: an unusable donation is an error
        x = on(devs, jnp.arange(16.0))
        y = jax.jit(lambda v: v * 3 + 1, donate_argnums=0)(x)
        y.block_until_ready()
        return {"donated": y}


def w_export_roundtrip(devs):
    from jax import export
    x = on(devs, jnp.arange(6.0).reshape(2, 3))
    exp = export.export(jax.jit(lambda a: jnp.sin(a) @ a.T), platforms=[devs[0].platform])(x)
    back = export.deserialize(exp.serialize())
    return {"called": back.call(x)}


def w_aot_analysis(devs):
    x = on(devs, jnp.arange(64.0).reshape(8, 8))
    compiled = jax.jit(lambda a: jnp.tanh(a @ a)).lower(x).compile()
    compiled.cost_analysis()
    compiled.memory_analysis()
    devs[0].memory_stats()
    return {"aot": compiled(x)}


def w_python_callbacks(devs):
    x = on(devs, jnp.arange(4.0))
    f = jax.jit(lambda v: jax.pure_callback(lambda a: np.asarray(a) * 2, jax.ShapeDtypeStruct(v.shape, v.dtype), v))
    return {"pure_callback": f(x)}


def w_dlpack(devs):
    x = on(devs, jnp.arange(6.0))
    back = np.from_dlpack(x)  # export: JAX -> numpy
    imported = jax.device_put(jnp.from_dlpack(np.arange(6.0, dtype=np.float32)), devs[0])
    return {"exported": jnp.asarray(back), "imported": imported}


WORKLOADS = {name[2:]: fn for name, fn in dict(globals()).items() if name.startswith("w_")}


def leaves(tree):
    return {k: np.asarray(v) for k, v in tree.items()}


def compare(got, want):
    for k in want:
        g, w = got[k], want[k]
        if g.shape != w.shape or g.dtype != w.dtype:
            return "%s: %s %s on the plugin, %s %s on JAX's CPU backend" % (k, g.dtype, g.shape, w.dtype, w.shape)
        if w.dtype.kind in "biu":
            bad = np.flatnonzero(g.reshape(-1) != w.reshape(-1))
        else:
            loose = w.dtype in (jnp.bfloat16, np.float16) or k.startswith("bf16") or k.startswith("f8")
            rtol, atol = (2e-2, 1e-2) if loose else (2e-5, 1e-6)
            bad = np.flatnonzero(~np.isclose(g.reshape(-1).astype(np.complex128), w.reshape(-1).astype(np.complex128),
                                             rtol=rtol, atol=atol, equal_nan=True))
        if bad.size:
            i = int(bad[0])
            return "%s: %d of %d elements differ from JAX's CPU backend; first at flat index %d: %r, expected %r" % (
                k, bad.size, w.size, i, g.reshape(-1)[i].item(), w.reshape(-1)[i].item())
    return None


def emit(obj):
    sys.stdout.write("\n" + json.dumps(obj) + "\n")
    sys.stdout.flush()
    sys.exit(0)


def run(phase, platform):
    try:
        devs = jax.devices(platform)
        with jax.default_device(devs[0]):
            return leaves(WORKLOADS[ARGS["workload"]](devs))
    except Unsupported as e:
        emit({"status": "unsupported", "message": str(e)})
    except Exception as e:  # noqa: BLE001 -- every exception is a verdict
        emit({"status": "error", "phase": phase, "type": type(e).__name__, "message": str(e)[:4000]})


def aot_named_sharding(mesh):
    s, r = NamedSharding(mesh, P("x")), NamedSharding(mesh, P())
    n = mesh.devices.size * 4
    f = jax.jit(lambda v: (v * jnp.arange(n, dtype=jnp.float32), jnp.sum(v)), in_shardings=s, out_shardings=(s, r))
    return f.lower(jax.ShapeDtypeStruct((n,), jnp.float32, sharding=s)), (s, r)


def aot_shard_map(mesh):
    s = NamedSharding(mesh, P("x"))
    n = mesh.devices.size * 4
    body = jax.shard_map(lambda v: (jax.lax.psum(v, "x"), jax.lax.all_gather(v, "x", tiled=True)),
                         mesh=mesh, in_specs=P("x"), out_specs=(P("x"), P("x")))
    return jax.jit(body, in_shardings=s, out_shardings=(s, s)).lower(jax.ShapeDtypeStruct((n,), jnp.float32, sharding=s)), (s, s)


def aot_random(mesh):
    r = NamedSharding(mesh, P())
    f = jax.jit(lambda k: jax.random.normal(k, (64,)), out_shardings=r)
    return f.lower(jax.random.key(7)), (r,)


AOT_WORKLOADS = {"aot_named_sharding": aot_named_sharding, "aot_shard_map": aot_shard_map, "aot_random": aot_random}


def aot():
    """JAX's deviceless ahead-of-time path (jax.experimental.topologies): lower for the plugin's topology, compile
    through PJRT_Compile, and read back what JAX reads of the executable: its output shardings."""
    from jax.experimental import topologies
    try:
        try:
            topo = topologies.get_topology_desc(topology_name=ARGS.get("topology") or "", platform=ARGS["platform"],
                                                **ARGS.get("topologyOptions", {}))
        except NotImplementedError as e:
            emit({"status": "unsupported", "message": "no topology for ahead-of-time compiles: %s" % str(e).splitlines()[0]})
        devs = topo.devices
        if len(devs) < NEED:
            raise Unsupported("the topology has %d device(s); the workload needs %d" % (len(devs), NEED))
        mesh = Mesh(np.array(devs), ("x",))
        lowered, want = AOT_WORKLOADS[ARGS["workload"]](mesh)
        compiled = lowered.compile()
        got = compiled.output_shardings
        got = got if isinstance(got, (tuple, list)) else (got,)
        bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if not g.is_equivalent_to(w, 1)]
        if len(got) != len(want) or bad:
            emit({"status": "fail", "message": "the compiled executable's output shardings are %r, requested %r" % (
                [str(g.spec) for g in got], [str(w.spec) for w in want])})
        emit({"status": "pass"})
    except Unsupported as e:
        emit({"status": "unsupported", "message": str(e)})
    except Exception as e:  # noqa: BLE001 -- every exception is a verdict
        emit({"status": "error", "phase": "plugin", "type": type(e).__name__, "message": str(e)[:4000]})


def main():
    name = ARGS["workload"]
    if name in AOT_WORKLOADS:
        return aot()
    if name == "compile_cache":
        return compile_cache()
    if name not in WORKLOADS:
        emit({"status": "error", "phase": "setup", "type": "KeyError", "message": "unknown workload " + name})
    got = run("plugin", ARGS["platform"])
    want = run("cpu", "cpu")
    diff = compare(got, want)
    emit({"status": "fail", "message": diff} if diff else {"status": "pass"})


def compile_cache():
    """The persistent compilation cache: a second process finds the first one's executable (serialize, then
    deserialize through the plugin)."""
    from jax._src import compilation_cache
    backend = jax.devices(ARGS["platform"])[0].client
    jax.config.update("jax_compilation_cache_dir", tempfile.mkdtemp(prefix="pjrt-cts-jax-probe-"))
    if not compilation_cache.is_cache_used(backend):
        emit({"status": "error", "phase": "plugin", "type": "FrameworkRefusal",
              "message": "JAX does not use its persistent compilation cache on platform '%s'" % backend.platform})
    cache = tempfile.mkdtemp(prefix="pjrt-cts-jax-cache-")
    child = ("import jax, jax.numpy as jnp, json\n"
             "jax.config.update('jax_compilation_cache_dir', %r)\n"
             "jax.config.update('jax_persistent_cache_min_compile_time_secs', 0)\n"
             "jax.config.update('jax_persistent_cache_min_entry_size_bytes', 0)\n"
             "hits = []\n"
             "jax.monitoring.register_event_listener(lambda e, **k: hits.append(e) if e == '/jax/compilation_cache/cache_hits' else None)\n"
             "d = jax.devices(%r)[0]\n"
             "y = jax.jit(lambda v: jnp.cos(v) * 3)(jax.device_put(jnp.arange(8.0), d))\n"
             "print(json.dumps({'hits': len(hits), 'y': [float(t) for t in y]}))\n") % (cache, ARGS["platform"])
    runs = []
    for _ in range(2):
        p = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=os.environ)
        if p.returncode != 0:
            emit({"status": "error", "phase": "plugin", "type": "ChildProcessError",
                  "message": (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]})
        runs.append(json.loads(p.stdout.strip().splitlines()[-1]))
    if runs[1]["hits"] < 1:
        emit({"status": "fail", "message": "the second process did not hit the persistent compilation cache (%d entries written)"
              % len(os.listdir(cache))})
    want = np.cos(np.arange(8.0, dtype=np.float32)) * 3
    if not np.allclose(runs[1]["y"], want, rtol=2e-5) or runs[0]["y"] != runs[1]["y"]:
        emit({"status": "fail", "message": "the executable loaded from the cache computes %r, expected %r" % (runs[1]["y"], want.tolist())})
    emit({"status": "pass"})


if __name__ == "__main__":
    main()
