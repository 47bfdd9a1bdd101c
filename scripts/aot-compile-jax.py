# Compiles corpus programs ahead of time through JAX's own path against a TPU topology (jax 0.10.2 + libtpu):
# jax.experimental.topologies.get_topology_desc, then the topology's compile-only client's compile() (what
# jax.jit(f).lower(...).compile() calls for a compile-only backend, jax/_src/compiler.py backend_compile_and_load).
# Usage: python aot-compile-jax.py TOPOLOGY PROGRAMS_DIR NAME... ; prints one JSON line per program:
# {"name", "seconds", "cpu_seconds" (the process's CPU time, every thread)} or {"name", "error"}. The first compile of the process is included (as in the CTS's worker).
import json, sys, time
import numpy as np
from jax.experimental import topologies
from jax._src.lib import xla_client as xc
from jax._src.interpreters import mlir
from jax._src.lib.mlir import ir

topology_name, programs_dir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
devices = topologies.get_topology_desc(topology_name, "tpu").devices
client = devices[0].client
with mlir.make_ir_context():
  for name in names:
    sidecar = json.load(open(f"{programs_dir}/{name}.json"))
    replicas, partitions = sidecar.get("replicas", 1), sidecar.get("partitions", 1)
    ids = np.array([[devices[r * partitions + p].id for p in range(partitions)] for r in range(replicas)], dtype=np.int32)
    opts = xc.CompileOptions()
    opts.num_replicas, opts.num_partitions = replicas, partitions
    opts.device_assignment = xc.DeviceAssignment.create(ids)
    if partitions > 1:
      opts.executable_build_options.use_spmd_partitioning = True
    module = ir.Module.parse(open(f"{programs_dir}/{name}.mlir").read())
    t0, c0 = time.perf_counter(), time.process_time()
    try:
      client.compile(module, executable_devices=xc.DeviceList(tuple(devices[: replicas * partitions])), compile_options=opts)
      print(json.dumps({"name": name, "seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0}), flush=True)
    except Exception as e:  # a program the compiler declines
      print(json.dumps({"name": name, "error": str(e).split("\n")[0]}), flush=True)
